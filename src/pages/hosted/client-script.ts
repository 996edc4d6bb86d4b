/**
 * The hosted pages' script, served as `/gateway/v3/web/assets/hosted.js` (an external file, so the CSP needs
 * no inline script). It is plain ES5 because the provider supports Internet Explorer 11; a unit test parses
 * it with acorn at ecmaVersion 5. The pages work without it: it only adds inline validation, brand
 * detection, the test-card banner's fill buttons and, inside the library's iframe, the postMessage protocol
 * of SANDBOX.md ("Hosted page and library protocol").
 *
 * Page data comes from `<script type="application/json" id="pl-config">` (never executed).
 */
import { NARROW_SCREEN } from './styles.js';

export const HOSTED_SCRIPT = String.raw`(function () {
  'use strict';
  var doc = document;
  var root = doc.documentElement;
  var framed = false;
  try { framed = window.parent !== window; } catch (e) { framed = true; }

  var config = {};
  var configNode = doc.getElementById('pl-config');
  if (configNode) {
    try { config = JSON.parse(configNode.textContent || configNode.innerText || '{}') || {}; } catch (e) { config = {}; }
  }

  function byId(id) { return doc.getElementById(id); }
  function each(list, fn) { if (list) { for (var i = 0; i < list.length; i++) fn(list[i], i); } }
  function digits(value) { return String(value || '').replace(/\D/g, ''); }
  function hasClass(el, name) { return (' ' + el.className + ' ').indexOf(' ' + name + ' ') >= 0; }
  function addClass(el, name) { if (el && !hasClass(el, name)) el.className = (el.className ? el.className + ' ' : '') + name; }
  function removeClass(el, name) {
    if (el) el.className = (' ' + el.className + ' ').replace(' ' + name + ' ', ' ').replace(/^\s+|\s+$/g, '');
  }
  function on(el, type, fn) { if (el) el.addEventListener(type, fn, false); }

  // On a phone the test-card banner starts closed (its one-line summary says how to open it), so the form
  // is not pushed a screen or more down; wide screens keep it open as served.
  var banner = byId('pl-banner');
  if (banner && banner.tagName === 'DETAILS' && window.matchMedia && window.matchMedia('${NARROW_SCREEN}').matches) banner.removeAttribute('open');

  // Only messages without secrets go to the parent, so the target origin can be '*'.
  function post(message) {
    if (!framed) return;
    try { window.parent.postMessage(message, '*'); } catch (e) { /* parent gone */ }
  }

  // ---- Card rules (mirrors src/sandbox/domain/test-cards.ts detectBrand) ----
  var knownCards = {};
  each(config.testCards, function (card) { knownCards[card.number] = card.brandId; });
  function startsWith(text, prefix) { return text.substring(0, prefix.length) === prefix; }
  function detectBrand(n) {
    if (knownCards.hasOwnProperty(n)) return knownCards[n];
    var two = Number(n.substring(0, 2)), three = Number(n.substring(0, 3)), four = Number(n.substring(0, 4)), six = Number(n.substring(0, 6));
    if (startsWith(n, '34') || startsWith(n, '37')) return 1030;
    if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 1020;
    if (startsWith(n, '6011') || startsWith(n, '65') || (six >= 622126 && six <= 622925) || (three >= 644 && three <= 649)) return 1040;
    if (four >= 3528 && four <= 3589) return 1090;
    if (startsWith(n, '36') || startsWith(n, '38') || startsWith(n, '39') || (three >= 300 && three <= 305)) return 1060;
    if (startsWith(n, '6703')) return 1210;
    if (startsWith(n, '50') || (two >= 56 && two <= 69)) return 1050;
    if (startsWith(n, '4')) return 1010;
    return null;
  }
  function luhn(n) {
    if (!/^\d{12,19}$/.test(n)) return false;
    var sum = 0, double = false;
    for (var i = n.length - 1; i >= 0; i--) {
      var d = n.charCodeAt(i) - 48;
      if (double) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
      double = !double;
    }
    return sum % 10 === 0;
  }
  function brandName(id) {
    var names = config.brandNames || {};
    return names[id] || ('brand ' + id);
  }
  function offered(id) {
    var list = config.brandIds || [];
    for (var i = 0; i < list.length; i++) if (list[i] === id) return true;
    return false;
  }
  function cvvLength(brand) { return brand === 1030 ? 4 : 3; }

  // ---- The card form ----
  var form = byId('pl-card-form');
  var alertBox = byId('pl-alert');
  var submitted = false;
  var lastAction = 'pay';
  var touched = {};

  function field(name) { return form ? form.elements[name] : null; }
  function setError(name, message) {
    var input = field(name);
    var box = byId('pl-error-' + name);
    if (!input || !box) return;
    box.textContent = message || '';
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  }
  function currentBrand() { var n = field('cardNumber'); return n ? detectBrand(digits(n.value)) : null; }

  function showBrand() {
    var brand = currentBrand();
    each(doc.querySelectorAll('.pl-brand'), function (el) {
      if (brand !== null && el.getAttribute('data-brand-id') === String(brand)) addClass(el, 'pl-active'); else removeClass(el, 'pl-active');
    });
    var live = byId('pl-brand-live');
    if (live) live.textContent = brand === null ? '' : brandName(brand) + ' detected';
    var cvv = field('cvv');
    if (cvv) {
      var len = cvvLength(brand);
      cvv.setAttribute('maxlength', String(len));
      var hint = byId('pl-cvv-hint');
      if (hint) hint.textContent = len + ' digits' + (len === 4 ? ' (front of an American Express card)' : ' (back of the card)');
    }
  }

  var checks = {
    cardNumber: function () {
      var n = digits(field('cardNumber').value);
      if (!n) return 'Enter the card number.';
      if (!luhn(n)) return 'This card number is not valid: check the digits.';
      var brand = detectBrand(n);
      if (brand !== null && config.brandIds && !offered(brand)) {
        var names = [];
        each(config.brandIds, function (id) { names.push(brandName(id)); });
        return brandName(brand) + ' cards are not accepted here. Accepted: ' + names.join(', ') + '.';
      }
      return '';
    },
    expiry: function () {
      var m = digits(field('expiryMonth').value), y = digits(field('expiryYear').value);
      if (!m || !y) return 'Enter the expiry month and year.';
      var month = Number(m), year = Number(y);
      if (month < 1 || month > 12) return 'The expiry month must be between 1 and 12.';
      if (y.length === 2) year += 2000; else if (y.length !== 4) return 'Enter the expiry year as YY or YYYY.';
      var now = config.now || {};
      if (year < now.year || (year === now.year && month < now.month)) return 'This card has expired.';
      return '';
    },
    cvv: function () {
      var c = digits(field('cvv').value), len = cvvLength(currentBrand());
      if (c.length !== len || c !== field('cvv').value.replace(/\s/g, '')) return 'Enter the ' + len + '-digit security code.';
      return '';
    },
    holderName: function () {
      return field('holderName').value.replace(/^\s+|\s+$/g, '') ? '' : 'Enter the name on the card.';
    }
  };
  var errorTarget = { cardNumber: 'cardNumber', expiry: 'expiryMonth', cvv: 'cvv', holderName: 'holderName' };

  function validate(name) {
    var message = checks[name]();
    if (name === 'expiry') {
      setError('expiryMonth', message);
      var year = field('expiryYear');
      if (message) year.setAttribute('aria-invalid', 'true'); else year.removeAttribute('aria-invalid');
    } else {
      setError(name, message);
    }
    return message;
  }

  // Every form of the page (card form, 3-D Secure) tells the sandbox whether it runs inside the iframe.
  each(doc.querySelectorAll('input[name=framed]'), function (input) { input.value = framed ? '1' : ''; });

  if (form) {
    form.setAttribute('novalidate', 'novalidate');
    var number = field('cardNumber');
    on(number, 'input', function () { showBrand(); if (touched.cardNumber) validate('cardNumber'); });
    each(['cardNumber', 'cvv', 'holderName'], function (name) {
      on(field(name), 'blur', function () { if (field(name).value) { touched[name] = true; validate(name); } });
    });
    on(field('expiryYear'), 'blur', function () { touched.expiry = true; validate('expiry'); });
    on(field('cvv'), 'input', function () { if (touched.cvv) validate('cvv'); });
    each(form.querySelectorAll('button[name=action]'), function (button) {
      on(button, 'click', function () { lastAction = button.value; });
    });
    on(form, 'submit', function (event) {
      if (submitted) { event.preventDefault(); return; }
      if (lastAction === 'pay') {
        var first = null, messages = [];
        each(['cardNumber', 'expiry', 'cvv', 'holderName'], function (name) {
          touched[name] = true;
          var message = validate(name);
          if (message) { messages.push(message); if (!first) first = field(errorTarget[name]); }
        });
        if (first) {
          event.preventDefault();
          if (alertBox) { removeClass(alertBox, 'pl-info'); alertBox.textContent = messages.join(' '); }
          first.focus();
          return;
        }
      }
      submitted = true;
      form.setAttribute('aria-busy', 'true');
      var pay = byId('pl-pay');
      if (pay && lastAction === 'pay') { addClass(pay, 'pl-busy'); pay.setAttribute('aria-disabled', 'true'); }
    });
    showBrand();
  }

  // Test-card banner: each card fills the form with a valid expiry and CVV.
  each(doc.querySelectorAll('.pl-card-pick'), function (button) {
    on(button, 'click', function () {
      if (!form) return;
      var num = button.getAttribute('data-number');
      var brand = detectBrand(num);
      field('cardNumber').value = num;
      field('expiryMonth').value = '12';
      field('expiryYear').value = String(((config.now && config.now.year) || 2030) + 3);
      field('cvv').value = cvvLength(brand) === 4 ? '1234' : '123';
      if (!field('holderName').value) field('holderName').value = 'Test Customer';
      showBrand();
      each(['cardNumber', 'expiry', 'cvv', 'holderName'], function (name) { validate(name); });
      var pay = byId('pl-pay');
      if (pay) pay.focus();
    });
  });

  // ---- Framed: the library protocol ----
  var lastHeight = '';
  function measure() {
    var box = byId('pl-root') || doc.body;
    return Math.ceil(box.getBoundingClientRect().height) + 'px';
  }
  var readyPosted = false;
  // Heights go out only when the merchant asked for styles.autoHeight: the provider's published library
  // applies every {height} it gets, so a page that always posted them would override styles.iframe.height.
  var autoHeight = false;
  function postHeight() {
    if (!readyPosted || !autoHeight) return;
    var height = measure();
    if (height !== lastHeight) { lastHeight = height; post({ height: height }); }
  }

  function safeCssValue(value) {
    if (typeof value === 'number') value = String(value);
    if (typeof value !== 'string' || value.length > 200) return null;
    if (/[;{}<>\\]/.test(value) || /url\(|expression\(|@import/i.test(value)) return null;
    return value;
  }
  function httpUrl(value) { return typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) ? value : null; }

  function applyOptions(options) {
    var styles = options.styles && typeof options.styles === 'object' ? options.styles : {};
    autoHeight = styles.autoHeight === true;
    each(config.styleMap, function (entry) {
      var group = styles[entry.group];
      if (!group || typeof group !== 'object') return;
      var value = group[entry.option];
      if (value === undefined && entry.option === 'fontColor') value = group.fontColot;
      value = safeCssValue(value);
      if (value !== null && root.style.setProperty) root.style.setProperty(entry.property, value);
    });
    var general = styles.generalStyles || {};
    var fontUrl = httpUrl(general.fontFamilyUrl);
    if (fontUrl && !byId('pl-font')) {
      var link = doc.createElement('link');
      link.id = 'pl-font';
      link.rel = 'stylesheet';
      link.href = fontUrl;
      doc.getElementsByTagName('head')[0].appendChild(link);
    }
    var logoUrl = httpUrl(styles.imageUrl);
    var logo = byId('pl-logo');
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

  function becomeReady() {
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

  if (framed) {
    addClass(root, 'pl-framed');
    addClass(root, 'pl-waiting');
    var answered = false;
    on(window, 'message', function (event) {
      // The options come from the library in the parent window, and only from there.
      if (event.source !== window.parent || event.source === window) return;
      var data = event.data;
      if (typeof data === 'string') { try { data = JSON.parse(data); } catch (e) { return; } }
      if (!data || typeof data !== 'object' || data.ready || data.height || data.error || data.redirect) return;
      answered = true;
      applyOptions(data);
      becomeReady();
    });
    // A page framed by something other than the library would otherwise stay hidden.
    setTimeout(function () { if (!answered) becomeReady(); }, 1500);
    if (window.ResizeObserver) {
      new window.ResizeObserver(postHeight).observe(byId('pl-root') || doc.body);
    } else {
      on(window, 'resize', postHeight);
      setInterval(postHeight, 400);
    }
  } else {
    removeClass(root, 'pl-waiting');
  }
})();
`;
