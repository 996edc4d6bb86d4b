/**
 * The hosted pages' script, served as `{api}/web/assets/hosted.js` (an external file, so the CSP needs
 * no inline script). Compiled on its own (tsconfig.hosted.json: ES5 for Internet Explorer 11, DOM types, no
 * Node types) into one plain script; a unit test parses the built file with acorn at ecmaVersion 5. The
 * pages work without it: it adds inline validation, brand detection, the card number spaced as typed, the
 * sandbox badge's remembered state and its fill buttons and, inside the library's iframe, the postMessage
 * protocol of docs/hosted-pages.md.
 *
 * It knows no card rule of its own: brand ranges, CVV lengths, number groups, test cards and field names
 * come from domain/ as page data (`<script type="application/json" id="pl-config">`, page-config.ts).
 */
// biome-ignore-all lint/correctness/noInnerDeclarations: ES5 (Internet Explorer 11) has `var` only, scoped to the function whatever the block
import type { CardRules, FieldNames, HostedPageConfig } from '../page-config.js';

(function () {
  'use strict';
  var doc = document;
  var root = doc.documentElement;
  var framed = false;
  try {
    framed = window.parent !== window;
  } catch (e) {
    framed = true;
  }

  // domain/hosted-form.ts PAGE_CONFIG_ID: this script imports no values, so it spells the id itself.
  var configNode = doc.getElementById('pl-config');
  var config = readConfig();
  var cards: CardRules = config.cards || { ranges: [], brands: {}, testCards: {} };
  // The field names are page data too; a page without them has no form to drive (every lookup finds nothing).
  var names: FieldNames = config.fields || ({} as FieldNames);

  function readConfig(): HostedPageConfig {
    var empty = { state: '', styleMap: [], fields: undefined, cards: undefined } as unknown as HostedPageConfig;
    if (!configNode) return empty;
    try {
      return (JSON.parse(configNode.textContent || '{}') as HostedPageConfig) || empty;
    } catch (e) {
      return empty;
    }
  }

  function byId(id: string): HTMLElement | null {
    return doc.getElementById(id);
  }
  function each<T>(list: ArrayLike<T> | null | undefined, fn: (item: T, index: number) => void): void {
    if (list) for (var i = 0; i < list.length; i++) fn(list[i] as T, i);
  }
  function digits(value: string | null | undefined): string {
    return String(value || '').replace(/\D/g, '');
  }
  function hasClass(el: Element, name: string): boolean {
    return (' ' + el.className + ' ').indexOf(' ' + name + ' ') >= 0;
  }
  function addClass(el: Element | null, name: string): void {
    if (el && !hasClass(el, name)) el.className = (el.className ? el.className + ' ' : '') + name;
  }
  function removeClass(el: Element | null, name: string): void {
    if (el) el.className = (' ' + el.className + ' ').replace(' ' + name + ' ', ' ').replace(/^\s+|\s+$/g, '');
  }
  function on(el: EventTarget | null, type: string, fn: (event: Event) => void): void {
    if (el) el.addEventListener(type, fn, false);
  }

  // Only messages without secrets go to the parent, so the target origin can be '*'.
  function post(message: object): void {
    if (!framed) return;
    try {
      window.parent.postMessage(message, '*');
    } catch (e) {
      /* parent gone */
    }
  }

  // ---- The sandbox badge: its card list stays as the customer left it for the browser session ----
  var BADGE_KEY = 'paylink.testCards';
  var banner = byId('pl-banner');
  function remembered(): string | null {
    try {
      return window.sessionStorage.getItem(BADGE_KEY);
    } catch (e) {
      return null; // storage refused (a sandboxed or third-party frame): the list starts closed
    }
  }
  if (banner && banner.tagName === 'DETAILS') {
    if (remembered() === 'open') banner.setAttribute('open', '');
    on(banner, 'toggle', function () {
      try {
        window.sessionStorage.setItem(BADGE_KEY, banner!.hasAttribute('open') ? 'open' : 'closed');
      } catch (e) {
        /* not remembered */
      }
    });
  }

  // ---- Card rules, all of them page data from domain/ ----
  function detectBrand(n: string): number | null {
    if (cards.testCards.hasOwnProperty(n)) return cards.testCards[n] as number;
    for (var i = 0; i < cards.ranges.length; i++) {
      var range = cards.ranges[i]!;
      var head = n.substring(0, range.from.length);
      if (head.length === range.from.length && Number(head) >= Number(range.from) && Number(head) <= Number(range.to)) return range.brandId;
    }
    return null;
  }
  function luhn(n: string): boolean {
    if (!/^\d{12,19}$/.test(n)) return false;
    var sum = 0;
    var double = false;
    for (var i = n.length - 1; i >= 0; i--) {
      var d = n.charCodeAt(i) - 48;
      if (double) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      double = !double;
    }
    return sum % 10 === 0;
  }
  function brandName(id: number): string {
    var brand = cards.brands[String(id)];
    return brand ? brand.name : 'brand ' + id;
  }
  function offered(id: number): boolean {
    var list = config.brandIds || [];
    for (var i = 0; i < list.length; i++) if (list[i] === id) return true;
    return false;
  }
  function cvvLength(brandId: number | null): number {
    var brand = brandId === null ? undefined : cards.brands[String(brandId)];
    return brand ? brand.cvvLength : 3;
  }
  /** The sizes of a number's groups: the brand's own for its length, else fours (domain/cards.ts cardGroups). */
  function groupsOf(brandId: number | null, length: number): number[] {
    var brand = brandId === null ? undefined : cards.brands[String(brandId)];
    var fixed = brand && brand.groups ? brand.groups : [];
    for (var i = 0; i < fixed.length; i++) {
      var sizes = fixed[i]!;
      var total = 0;
      for (var j = 0; j < sizes.length; j++) total += sizes[j]!;
      if (total === length) return sizes.slice(0);
    }
    var fours: number[] = [];
    for (var left = length; left > 0; left -= 4) fours.push(Math.min(4, left));
    return fours;
  }
  /** Digits spaced as the brand groups them; digits typed past the brand's groups follow in fours. */
  function spaced(n: string): string {
    var brand = detectBrand(n);
    var full = groupsOf(brand, n.length);
    var parts: string[] = [];
    var at = 0;
    for (var i = 0; i < full.length && at < n.length; i++) {
      parts.push(n.substring(at, at + full[i]!));
      at += full[i]!;
    }
    return parts.join(' ');
  }
  /** While typed, the groups of the longest number the brand takes, so the spaces appear as the digits come. */
  function spacedWhileTyping(n: string): string {
    var brand = detectBrand(n);
    var brandInfo = brand === null ? undefined : cards.brands[String(brand)];
    var sizes = brandInfo && brandInfo.groups && brandInfo.groups.length > 0 ? brandInfo.groups[0]!.slice(0) : groupsOf(brand, 19);
    var parts: string[] = [];
    var at = 0;
    for (var i = 0; at < n.length; i++) {
      var size = i < sizes.length ? sizes[i]! : 4;
      parts.push(n.substring(at, at + size));
      at += size;
    }
    return parts.join(' ');
  }

  // ---- The card form ----
  var form = byId('pl-card-form') as HTMLFormElement | null;
  var alertBox = byId('pl-alert');
  var submitted = false;
  var lastAction = 'pay';
  var touched: { [name: string]: boolean } = {};

  function field(name: string): HTMLInputElement | null {
    return form ? (form.elements.namedItem(name) as HTMLInputElement | null) : null;
  }
  function value(name: string): string {
    var input = field(name);
    return input ? input.value : '';
  }
  function setError(name: string, message: string): void {
    var input = field(name);
    var box = byId('pl-error-' + name);
    if (!input || !box) return;
    box.textContent = message || '';
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  function currentBrand(): number | null {
    return field(names.cardNumber) ? detectBrand(digits(value(names.cardNumber))) : null;
  }

  function showBrand(): void {
    var brand = currentBrand();
    each(doc.querySelectorAll('.pl-brand'), function (el) {
      if (brand !== null && el.getAttribute('data-brand-id') === String(brand)) addClass(el, 'pl-active');
      else removeClass(el, 'pl-active');
    });
    var live = byId('pl-brand-live');
    if (live) live.textContent = brand === null ? '' : brandName(brand) + ' detected';
    var cvv = field(names.cvv);
    if (cvv) {
      var len = cvvLength(brand);
      cvv.setAttribute('maxlength', String(len));
      var hint = byId('pl-cvv-hint');
      if (hint) hint.textContent = len + ' digits' + (len === 4 ? ' (front of an American Express card)' : ' (back of the card)');
    }
  }

  /** Spaces the card number as it is typed, keeping the caret after the same digit. */
  function formatNumber(): void {
    var input = field(names.cardNumber);
    if (!input) return;
    var caret = input.selectionStart === null ? input.value.length : input.selectionStart;
    var digitsBefore = digits(input.value.substring(0, caret)).length;
    var n = digits(input.value);
    var next = spacedWhileTyping(n);
    if (next === input.value) return;
    input.value = next;
    if (doc.activeElement !== input) return;
    var at = 0;
    for (var seen = 0; at < next.length && seen < digitsBefore; at++) if (next.charAt(at) !== ' ') seen++;
    try {
      input.setSelectionRange(at, at);
    } catch (e) {
      /* an input that takes no selection */
    }
  }

  var checks: { [name: string]: () => string } = {
    cardNumber: function () {
      var n = digits(value(names.cardNumber));
      if (!n) return 'Enter the card number.';
      if (!luhn(n)) return 'This card number is not valid: check the digits.';
      var brand = detectBrand(n);
      if (brand !== null && config.brandIds && !offered(brand)) {
        var accepted: string[] = [];
        each(config.brandIds, function (id) {
          accepted.push(brandName(id));
        });
        return brandName(brand) + ' cards are not accepted here. Accepted: ' + accepted.join(', ') + '.';
      }
      return '';
    },
    expiry: function () {
      var m = digits(value(names.expiryMonth));
      var y = digits(value(names.expiryYear));
      if (!m || !y) return 'Enter the expiry month and year.';
      var month = Number(m);
      var year = Number(y);
      if (month < 1 || month > 12) return 'The expiry month must be between 1 and 12.';
      if (y.length === 2) year += 2000;
      else if (y.length !== 4) return 'Enter the expiry year as YY or YYYY.';
      var now = config.now;
      if (now && (year < now.year || (year === now.year && month < now.month))) return 'This card has expired.';
      return '';
    },
    cvv: function () {
      var c = digits(value(names.cvv));
      var len = cvvLength(currentBrand());
      if (c.length !== len || c !== value(names.cvv).replace(/\s/g, '')) return 'Enter the ' + len + '-digit security code.';
      return '';
    },
    holderName: function () {
      return value(names.holderName).replace(/^\s+|\s+$/g, '') ? '' : 'Enter the name on the card.';
    },
  };
  var errorTarget: { [check: string]: string } = { cardNumber: names.cardNumber, expiry: names.expiryMonth, cvv: names.cvv, holderName: names.holderName };
  var CHECK_ORDER = ['cardNumber', 'expiry', 'cvv', 'holderName'];

  function validate(name: string): string {
    var message = checks[name]!();
    if (name === 'expiry') {
      setError(names.expiryMonth, message);
      var year = field(names.expiryYear);
      if (year) {
        if (message) year.setAttribute('aria-invalid', 'true');
        else year.removeAttribute('aria-invalid');
      }
    } else {
      setError(errorTarget[name]!, message);
    }
    return message;
  }

  // Every form of the page (card form, 3-D Secure) tells the sandbox whether it runs inside the iframe.
  each(doc.querySelectorAll('input[name=' + names.framed + ']'), function (input) {
    (input as HTMLInputElement).value = framed ? '1' : '';
  });

  if (form) {
    var theForm = form;
    theForm.setAttribute('novalidate', 'novalidate');
    on(field(names.cardNumber), 'input', function () {
      formatNumber();
      showBrand();
      if (touched.cardNumber) validate('cardNumber');
    });
    each([names.cardNumber, names.cvv, names.holderName], function (name) {
      on(field(name), 'blur', function () {
        if (value(name)) {
          var check = name === names.cardNumber ? 'cardNumber' : name === names.cvv ? 'cvv' : 'holderName';
          touched[check] = true;
          validate(check);
        }
      });
    });
    on(field(names.expiryYear), 'blur', function () {
      touched.expiry = true;
      validate('expiry');
    });
    on(field(names.cvv), 'input', function () {
      if (touched.cvv) validate('cvv');
    });
    each(theForm.querySelectorAll('button[name=' + names.action + ']'), function (button) {
      on(button, 'click', function () {
        lastAction = (button as HTMLButtonElement).value;
      });
    });
    on(theForm, 'submit', function (event) {
      if (submitted) {
        event.preventDefault();
        return;
      }
      if (lastAction === 'pay') {
        var first: HTMLInputElement | null = null;
        var messages: string[] = [];
        each(CHECK_ORDER, function (name) {
          touched[name] = true;
          var message = validate(name);
          if (message) {
            messages.push(message);
            if (!first) first = field(errorTarget[name]!);
          }
        });
        if (first) {
          event.preventDefault();
          if (alertBox) {
            removeClass(alertBox, 'pl-info');
            alertBox.textContent = messages.join(' ');
          }
          (first as HTMLInputElement).focus();
          return;
        }
      }
      submitted = true;
      theForm.setAttribute('aria-busy', 'true');
      var pay = byId('pl-pay');
      if (pay && lastAction === 'pay') {
        addClass(pay, 'pl-busy');
        pay.setAttribute('aria-disabled', 'true');
      }
    });
    formatNumber();
    showBrand();
  }

  // The badge's test cards: each fills the form with the fields its button carries (domain/hosted-form.ts).
  each(doc.querySelectorAll('.pl-card-pick'), function (button) {
    on(button, 'click', function () {
      if (!form) return;
      var fill = function (name: string, attribute: string, keep?: boolean) {
        var input = field(name);
        var given = button.getAttribute(attribute);
        if (input && given !== null && !(keep && input.value)) input.value = given;
      };
      var number = field(names.cardNumber);
      if (number) number.value = spaced(button.getAttribute('data-number') || '');
      fill(names.expiryMonth, 'data-expiry-month');
      fill(names.expiryYear, 'data-expiry-year');
      fill(names.cvv, 'data-cvv');
      fill(names.holderName, 'data-holder-name', true);
      showBrand();
      each(CHECK_ORDER, function (name) {
        validate(name);
      });
      if (banner) banner.removeAttribute('open');
      var pay = byId('pl-pay');
      if (pay) pay.focus();
    });
  });

  // ---- Framed: the library protocol ----
  var lastHeight = '';
  function measure(): string {
    var box = byId('pl-root') || doc.body;
    return Math.ceil(box.getBoundingClientRect().height) + 'px';
  }
  var readyPosted = false;
  // Heights go out only when the merchant asked for styles.autoHeight: the provider's published library
  // applies every {height} it gets, so a page that always posted them would override styles.iframe.height.
  var autoHeight = false;
  function postHeight(): void {
    if (!readyPosted || !autoHeight) return;
    var height = measure();
    if (height !== lastHeight) {
      lastHeight = height;
      post({ height: height });
    }
  }

  function safeCssValue(value: unknown): string | null {
    if (typeof value === 'number') value = String(value);
    if (typeof value !== 'string' || value.length > 200) return null;
    if (/[;{}<>\\]/.test(value) || /url\(|expression\(|@import/i.test(value)) return null;
    return value;
  }
  function httpUrl(value: unknown): string | null {
    return typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) ? value : null;
  }

  type Options = { [key: string]: any };

  function applyOptions(options: Options): void {
    var styles: Options = options.styles && typeof options.styles === 'object' ? options.styles : {};
    autoHeight = styles.autoHeight === true;
    each(config.styleMap, function (entry) {
      var group = styles[entry.group];
      if (!group || typeof group !== 'object') return;
      var raw = group[entry.option];
      if (raw === undefined && entry.option === 'fontColor') raw = group.fontColot;
      var css = safeCssValue(raw);
      if (css !== null && root.style.setProperty) root.style.setProperty(entry.property, css);
    });
    var general: Options = styles.generalStyles || {};
    var fontUrl = httpUrl(general.fontFamilyUrl);
    if (fontUrl && !byId('pl-font')) {
      var link = doc.createElement('link');
      link.id = 'pl-font';
      link.rel = 'stylesheet';
      link.href = fontUrl;
      doc.getElementsByTagName('head')[0]!.appendChild(link);
    }
    var logoUrl = httpUrl(styles.imageUrl);
    var logo = byId('pl-logo') as HTMLImageElement | null;
    if (logo && logoUrl) {
      logo.src = logoUrl;
      removeClass(logo, 'pl-hidden');
      on(logo, 'load', postHeight);
    }
    var showDecline = options.showDeclineButton;
    if (showDecline === undefined) showDecline = options.showDeclinebutton;
    var decline = byId('pl-decline');
    if (decline && showDecline === false) addClass(decline, 'pl-hidden');
  }

  function becomeReady(): void {
    removeClass(root, 'pl-waiting');
    readyPosted = true;
    post({ ready: true });
    lastHeight = '';
    postHeight();
    if (config.terminal) post({ error: config.terminal });
  }

  if (config.redirect) {
    // The end of the flow: inside the iframe the library navigates the top window; standalone, go there.
    if (framed) post({ redirect: config.redirect });
    else window.location.replace(config.redirect);
  }

  var embeddedEnd = config.embeddedEnd;
  if (embeddedEnd) {
    // The end of an embedded 3-D Secure check: tell the merchant's page that framed it (only at the origin
    // of the merchant's return address), then open that return address inside the frame.
    if (framed) {
      try {
        window.parent.postMessage(embeddedEnd.message, embeddedEnd.targetOrigin);
      } catch (e) {
        /* parent gone */
      }
    }
    if (embeddedEnd.next && /^https?:\/\//i.test(embeddedEnd.next)) window.location.replace(embeddedEnd.next);
  }

  if (framed && (config.embeddable || embeddedEnd)) {
    // Framed by the merchant's own page (the embedded 3-D Secure flow), not by the library: no options come.
    addClass(root, 'pl-framed');
    removeClass(root, 'pl-waiting');
  } else if (framed) {
    addClass(root, 'pl-framed');
    addClass(root, 'pl-waiting');
    var answered = false;
    on(window, 'message', function (received) {
      var event = received as MessageEvent;
      // The options come from the library in the parent window, and only from there.
      if (event.source !== window.parent || event.source === window) return;
      var data = event.data;
      if (typeof data === 'string') {
        try {
          data = JSON.parse(data);
        } catch (e) {
          return;
        }
      }
      if (!data || typeof data !== 'object' || data.ready || data.height || data.error || data.redirect) return;
      answered = true;
      applyOptions(data as Options);
      becomeReady();
    });
    // A page framed by something other than the library would otherwise stay hidden.
    setTimeout(function () {
      if (!answered) becomeReady();
    }, 1500);
    var Observer = (window as unknown as { ResizeObserver?: new (callback: () => void) => { observe(target: Element): void } }).ResizeObserver;
    if (Observer) {
      new Observer(postHeight).observe(byId('pl-root') || doc.body);
    } else {
      on(window, 'resize', postHeight);
      setInterval(postHeight, 400);
    }
  } else {
    removeClass(root, 'pl-waiting');
  }
})();
