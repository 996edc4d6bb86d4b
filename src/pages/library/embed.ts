/**
 * The embed: `new PaymentLink(linkId, containerElementId, options)` / `new Checkout(checkoutId, ...)`
 * (docs/api.md) and its side of the iframe protocol (docs/library.md, "The iframe protocol"):
 * the iframe stays hidden until the page says `{ready: true}`; the options go to the page on every load,
 * addressed to the page's origin only; `{height}`, `{error}` and `{redirect}` come back. A message is
 * trusted only when it comes from our iframe's window AND from the page's origin.
 *
 * Compiled to ES5 for Internet Explorer 11 (see `tsconfig.library.json`): no Promise, Object.assign,
 * CustomEvent constructor without a fallback, or URL.
 */
namespace PaylinkLibrary {
  /** What the script that wraps this code knows: set per sandbox for served scripts, empty for npm. */
  export interface LibraryConfig {
    /** Base URL of the sandbox that served the script; null in the npm build (options.baseUrl then). */
    baseUrl: string | null;
    /** True when a paylink sandbox served the script: `live: true` then only warns. */
    sandbox: boolean;
    /** The package version this copy was built from (it identifies the build in the served text). */
    version: string;
    /**
     * Path patterns of the hosted pages, from the sandbox's route table (given at build and serve time):
     * `paymentlink` with `:linkId`, `checkout` with `:checkoutId`.
     */
    pages: { [kind: string]: string };
  }

  interface EmbedKind {
    /** Global name, used in messages: `PaymentLink` or `Checkout`. */
    label: string;
    /** Name of the id argument, for messages. */
    idName: string;
    /** The CustomEvent raised on `document` for `{error}`. */
    errorEvent: string;
  }

  const KINDS: { [kind: string]: EmbedKind } = {
    paymentlink: { label: 'PaymentLink', idName: 'linkId', errorEvent: 'paymentlink-error' },
    checkout: { label: 'Checkout', idName: 'checkoutId', errorEvent: 'checkout-error' },
  };

  /** `scheme://host[:port]` of an absolute http(s) URL, as browsers write `event.origin`; null otherwise. */
  export function originOf(url: string): string | null {
    const match = /^(https?):\/\/([^\/?#@]+)/i.exec(url);
    if (!match) return null;
    const scheme = match[1]!.toLowerCase();
    let host = match[2]!.toLowerCase();
    if ((scheme === 'http' && /:80$/.test(host)) || (scheme === 'https' && /:443$/.test(host))) host = host.replace(/:\d+$/, '');
    return scheme + '://' + host;
  }

  function pickBase(label: string, config: LibraryConfig, given: unknown, live: boolean): string {
    let base: unknown = config.baseUrl;
    if (typeof given === 'string') base = given;
    else if (typeof given === 'object' && given !== null) base = live ? (given as { live?: unknown }).live : (given as { staging?: unknown }).staging;
    else if (given !== undefined) report('error', label + ': options.baseUrl must be a URL or {staging, live}; ignored.');
    if (typeof base !== 'string' || originOf(base) === null) {
      throw new ReferenceError(
        label +
          ': no base URL to load the ' +
          (live ? 'live' : 'staging') +
          ' form from. Pass options.baseUrl (an http(s) URL, or {staging, live}) when the library is bundled from npm.',
      );
    }
    return base.replace(/\/+$/, '');
  }

  /** Raises `name` on `document` with `detail`; IE11 has no CustomEvent constructor, hence createEvent. */
  function dispatch(name: string, detail: unknown): void {
    let event: CustomEvent;
    if (typeof window.CustomEvent === 'function') {
      event = new window.CustomEvent(name, { detail: detail, bubbles: false, cancelable: false });
    } else {
      event = document.createEvent('CustomEvent');
      event.initCustomEvent(name, false, false, detail);
    }
    document.dispatchEvent(event);
  }

  /** A message's data as an object: structured-cloned objects, or JSON text from pages that send strings. */
  function messageData(data: unknown): { [key: string]: unknown } | null {
    let value = data;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch (e) {
        return null;
      }
    }
    return typeof value === 'object' && value !== null ? (value as { [key: string]: unknown }) : null;
  }

  export class Embed {
    /** The options with every default filled in, as sent to the page. */
    readonly options: ResolvedOptions;
    /** The hosted page's URL the iframe loads. */
    readonly url: string;
    private readonly kind: EmbedKind;
    private readonly containerElementId: string;
    private readonly origin: string;
    private readonly givenOptions: { [key: string]: unknown };
    private iframe: HTMLIFrameElement | null = null;
    private onMessage: ((event: MessageEvent) => void) | null = null;

    constructor(kindName: string, config: LibraryConfig, id: unknown, containerElementId: unknown, options?: unknown) {
      const kind = KINDS[kindName]!;
      this.kind = kind;
      if (typeof id !== 'string' || id === '')
        throw new ReferenceError(
          kind.label + ': the ' + kind.idName + ' argument is missing. Call new ' + kind.label + '(' + kind.idName + ', containerElementId, options).',
        );
      if (typeof containerElementId !== 'string' || containerElementId === '') {
        throw new ReferenceError(kind.label + ': the containerElementId argument is missing. Give the id of an empty element that will hold the form.');
      }
      this.containerElementId = containerElementId;
      this.options = resolveOptions(kind.label, options);
      this.givenOptions = typeof options === 'object' && options !== null ? (options as { [key: string]: unknown }) : {};
      const given = typeof options === 'object' && options !== null ? (options as { baseUrl?: unknown }).baseUrl : undefined;
      const base = pickBase(kind.label, config, given, this.options.live);
      if (this.options.live && config.sandbox && given === undefined) {
        report(
          'warn',
          kind.label +
            ': live is true, but this script was served by a paylink sandbox (' +
            base +
            "): the form still comes from the sandbox, and no real payment is made. Load the provider's script for production.",
        );
      }
      this.origin = originOf(base)!;
      const encoded = encodeURIComponent(id);
      // A function, so that `$` in an id is not read as a replacement pattern.
      this.url =
        base +
        config.pages[kindName]!.replace(':' + kind.idName, function () {
          return encoded;
        });
    }

    /** Puts the form's iframe in the container (replacing an earlier one). Throws ReferenceError if the element is missing. */
    render(): this {
      const container = document.getElementById(this.containerElementId);
      if (!container)
        throw new ReferenceError(
          this.kind.label + ': no element with id "' + this.containerElementId + '" on the page. Add an empty element with that id before calling render().',
        );
      this.teardown();

      const iframe = document.createElement('iframe');
      const sizes = this.options.styles.iframe;
      iframe.title = this.kind.label === 'Checkout' ? 'Checkout' : 'Payment link';
      // Name and size attributes as the provider's library sets them (merchant CSS may select on them).
      iframe.name = this.kind.label;
      iframe.setAttribute('width', sizes['width']!);
      iframe.setAttribute('height', sizes['height']!);
      iframe.setAttribute('frameborder', '0');
      iframe.setAttribute('allowtransparency', 'true');
      if (this.options.styles.autoHeight) iframe.setAttribute('scrolling', 'no');
      iframe.style.border = '0';
      iframe.style.display = 'block';
      iframe.style.width = sizes['width']!;
      iframe.style.height = sizes['height']!;
      // Hidden, not display:none: the page lays itself out (and measures its height) before it is shown.
      iframe.style.visibility = 'hidden';

      const self = this;
      iframe.addEventListener('load', function () {
        // Every navigation inside the frame (a retry, 3-D Secure) is a new page that needs the options.
        if (iframe.contentWindow) iframe.contentWindow.postMessage(self.message(), self.origin);
      });
      this.onMessage = function (event: MessageEvent) {
        self.receive(event);
      };
      window.addEventListener('message', this.onMessage);
      iframe.src = this.url;
      container.appendChild(iframe);
      this.iframe = iframe;
      return this;
    }

    /**
     * The options message: every option the merchant gave (as the provider's library posts
     * `{styles, ...options}`), with the resolved values and defaults of the known ones.
     */
    private message(): { [key: string]: unknown } {
      const message: { [key: string]: unknown } = {};
      const given = this.givenOptions;
      for (const key in given) {
        if (Object.prototype.hasOwnProperty.call(given, key) && key !== 'baseUrl') message[key] = given[key];
      }
      message['styles'] = this.options.styles;
      message['showDeclineButton'] = this.options.showDeclineButton;
      message['live'] = this.options.live;
      return message;
    }

    /** Shows the form (after `hide()`). Throws ReferenceError before `render()`. */
    show(): this {
      this.rendered('show').style.display = 'block';
      return this;
    }

    /** Hides the form. Throws ReferenceError before `render()`. */
    hide(): this {
      this.rendered('hide').style.display = 'none';
      return this;
    }

    private rendered(method: string): HTMLIFrameElement {
      if (!this.iframe) throw new ReferenceError(this.kind.label + ': ' + method + '() was called before render(). Call render() first.');
      return this.iframe;
    }

    private teardown(): void {
      if (this.onMessage) window.removeEventListener('message', this.onMessage);
      if (this.iframe && this.iframe.parentNode) this.iframe.parentNode.removeChild(this.iframe);
      this.onMessage = null;
      this.iframe = null;
    }

    private receive(event: MessageEvent): void {
      const iframe = this.iframe;
      // Both checks: the origin proves who wrote the message, the source that it is our frame (two embeds
      // of the same sandbox on one page must not hear each other).
      if (!iframe || event.origin !== this.origin || event.source !== iframe.contentWindow) return;
      const data = messageData(event.data);
      if (!data) return;
      if (data['ready'] === true) iframe.style.visibility = 'visible';
      const height = typeof data['height'] === 'number' ? data['height'] + 'px' : data['height'];
      if (height !== undefined && this.options.styles.autoHeight && isLength(height)) iframe.style.height = height as string;
      // `detail: {error}` as the provider's published library raises it, so merchant code written for the
      // provider (`event.detail.error.message`) works unchanged.
      if (data['error'] !== undefined) dispatch(this.kind.errorEvent, { error: data['error'] });
      const redirect = data['redirect'];
      if (typeof redirect === 'string') {
        if (/^https?:\/\//i.test(redirect)) (window.top || window).location.href = redirect;
        else report('error', this.kind.label + ': ignored a redirect to a non-http(s) address.');
      }
    }
  }

  /** The two constructors, bound to how this copy of the library was built. */
  export function create(config: LibraryConfig): { PaymentLink: unknown; Checkout: unknown } {
    class PaymentLink extends Embed {
      constructor(linkId: string, containerElementId: string, options?: unknown) {
        super('paymentlink', config, linkId, containerElementId, options);
      }
    }
    class Checkout extends Embed {
      constructor(checkoutId: string, containerElementId: string, options?: unknown) {
        super('checkout', config, checkoutId, containerElementId, options);
      }
    }
    return { PaymentLink: PaymentLink, Checkout: Checkout };
  }
}
