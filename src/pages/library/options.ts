/**
 * Options of `PaymentLink` / `Checkout` (docs/api.md): the table of every option with its type and default,
 * and the one function that turns what a merchant passed into a complete, checked set. Invalid values are
 * reported on the console and replaced by the default, so a typo never breaks the checkout.
 *
 * This file is compiled by `tsconfig.library.json` to ES5 for Internet Explorer 11: no ES2015 APIs here.
 */
namespace PaylinkLibrary {
  type OptionType = 'boolean' | 'text' | 'length' | 'url';

  interface OptionSpec {
    name: string;
    type: OptionType;
    defaultValue: string | boolean;
    /** A spelling the spec's table uses next to the one its example uses; accepted, the canonical name wins. */
    alias?: string;
  }

  export interface StyleGroups {
    [group: string]: { [name: string]: string | boolean };
  }

  /** Every style option with its default; sent to the hosted page as they are. */
  export interface ResolvedStyles {
    imageUrl: string;
    autoHeight: boolean;
    generalStyles: { [name: string]: string };
    formStyles: { [name: string]: string };
    paymentButtonStyles: { [name: string]: string };
    iframe: { [name: string]: string };
  }

  export interface ResolvedOptions {
    live: boolean;
    showDeclineButton: boolean;
    styles: ResolvedStyles;
  }

  const STYLE_GROUPS: { [group: string]: OptionSpec[] } = {
    generalStyles: [
      { name: 'fontFamily', type: 'text', defaultValue: 'Source Sans Pro, Arial, Verdana' },
      { name: 'fontFamilyUrl', type: 'url', defaultValue: '' },
      { name: 'backgroundColor', type: 'text', defaultValue: '#f6f7fb' },
      { name: 'primaryThemeColor', type: 'text', defaultValue: '#213d8f' },
      { name: 'accentThemeColor', type: 'text', defaultValue: '#909ec7' },
      { name: 'secondaryThemeColor', type: 'text', defaultValue: '#909ec7' },
      { name: 'infoThemeColor', type: 'text', defaultValue: '#1db9de' },
      { name: 'warningThemeColor', type: 'text', defaultValue: '#fec61f' },
      { name: 'errorThemeColor', type: 'text', defaultValue: '#e6493a' },
      // The spec's table says #35ba6, a typo for the example's #35ba6d.
      { name: 'successThemeColor', type: 'text', defaultValue: '#35ba6d' },
    ],
    formStyles: [
      { name: 'backgroundFormColor', type: 'text', defaultValue: '#ffffff' },
      { name: 'backgroundFormContainerColor', type: 'text', defaultValue: '#ffffff' },
      { name: 'fontSize', type: 'length', defaultValue: '14px' },
      { name: 'borderWidth', type: 'length', defaultValue: '1px' },
      { name: 'borderRadius', type: 'length', defaultValue: '2px' },
    ],
    paymentButtonStyles: [
      { name: 'fontColor', type: 'text', defaultValue: '#ffffff', alias: 'fontColot' },
      { name: 'backgroundColor', type: 'text', defaultValue: '#8ec03f' },
      { name: 'borderColor', type: 'text', defaultValue: '#8ec03f' },
      { name: 'fontSize', type: 'length', defaultValue: '16px' },
      { name: 'borderWidth', type: 'length', defaultValue: '1px' },
      { name: 'borderRadius', type: 'length', defaultValue: '2px' },
    ],
    iframe: [
      { name: 'width', type: 'length', defaultValue: '100%' },
      { name: 'height', type: 'length', defaultValue: '780px' },
    ],
  };

  const STYLE_OPTIONS: OptionSpec[] = [
    { name: 'imageUrl', type: 'url', defaultValue: '' },
    { name: 'autoHeight', type: 'boolean', defaultValue: false },
  ];

  const TOP_OPTIONS: OptionSpec[] = [
    { name: 'live', type: 'boolean', defaultValue: false },
    { name: 'showDeclineButton', type: 'boolean', defaultValue: true, alias: 'showDeclinebutton' },
  ];

  /** Options the library reads itself and does not send to the page. */
  const LOCAL_OPTIONS = ['baseUrl'];

  /** A non-negative number followed by one of the spec's CSS units. */
  const LENGTH = /^(\d+(\.\d+)?|\.\d+)(em|ex|%|px|cm|mm|in|pt|pc)$/;

  /** Characters that could end a CSS declaration or a tag; a colour or a font family never needs them. */
  const UNSAFE_TEXT = /[;{}<>"\\]/;

  export function isLength(value: unknown): boolean {
    return typeof value === 'string' && LENGTH.test(value);
  }

  /** `console.error` / `console.warn` when the browser has a console (old IE only with devtools open). */
  export function report(level: 'error' | 'warn', message: string): void {
    if (typeof console !== 'undefined' && console && typeof console[level] === 'function') console[level](message);
  }

  function has(object: object, key: string): boolean {
    return Object.prototype.hasOwnProperty.call(object, key);
  }

  function isObject(value: unknown): value is { [key: string]: unknown } {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Object]';
  }

  /** Resolves a URL against the merchant page (an anchor does it in every browser) and keeps only http(s). */
  function absoluteHttpUrl(value: string): string | null {
    const anchor = document.createElement('a');
    anchor.href = value;
    const href = anchor.href;
    return /^https?:\/\//i.test(href) ? href : null;
  }

  function describe(type: OptionType): string {
    if (type === 'boolean') return 'true or false';
    if (type === 'length') return 'a length with a unit: em, ex, %, px, cm, mm, in, pt or pc (e.g. "14px")';
    if (type === 'url') return 'an http(s) URL';
    return 'a string without ; { } < > " or \\';
  }

  function check(spec: OptionSpec, value: unknown): { ok: boolean; value: string | boolean } {
    if (spec.type === 'boolean') return { ok: typeof value === 'boolean', value: value as boolean };
    if (spec.type === 'length') return { ok: isLength(value), value: value as string };
    if (typeof value !== 'string' || UNSAFE_TEXT.test(value) || value.length > 500) return { ok: false, value: '' };
    if (spec.type === 'url') {
      if (value === '') return { ok: true, value: '' };
      const url = absoluteHttpUrl(value);
      return { ok: url !== null, value: url || '' };
    }
    return { ok: true, value: value };
  }

  function readGroup(label: string, source: unknown, specs: OptionSpec[], known: string[], target: { [name: string]: string | boolean }, where: string): void {
    const given = isObject(source) ? source : {};
    if (source !== undefined && !isObject(source)) report('error', label + ': ' + where + ' must be an object; using the defaults.');
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]!;
      let key: string | null = null;
      if (has(given, spec.name) && given[spec.name] !== undefined) key = spec.name;
      else if (spec.alias && has(given, spec.alias) && given[spec.alias] !== undefined) key = spec.alias;
      target[spec.name] = spec.defaultValue;
      if (key === null) continue;
      const result = check(spec, given[key]);
      if (result.ok) target[spec.name] = result.value;
      else
        report(
          'error',
          label +
            ': ' +
            where +
            (where ? '.' : '') +
            key +
            ' must be ' +
            describe(spec.type) +
            '; got ' +
            String(given[key]) +
            '. Using the default, ' +
            JSON.stringify(spec.defaultValue) +
            '.',
        );
    }
    for (const key in given) {
      if (!has(given, key)) continue;
      let isKnown = known.indexOf(key) >= 0;
      for (let i = 0; i < specs.length && !isKnown; i++) isKnown = specs[i]!.name === key || specs[i]!.alias === key;
      if (!isKnown) report('warn', label + ': unknown option ' + where + (where ? '.' : '') + key + ' is ignored.');
    }
  }

  /**
   * Every option with its default, then the merchant's valid values over them. `label` names the global
   * (`PaymentLink` or `Checkout`) in console messages.
   */
  export function resolveOptions(label: string, options: unknown): ResolvedOptions {
    if (options !== undefined && options !== null && !isObject(options)) report('error', label + ': options must be an object; using the defaults.');
    const given = isObject(options) ? options : {};
    const top: { [name: string]: string | boolean } = {};
    readGroup(label, given, TOP_OPTIONS, LOCAL_OPTIONS.concat(['styles']), top, '');

    const stylesGiven = given['styles'];
    const styles: { [name: string]: unknown } = {};
    const styleFlat: { [name: string]: string | boolean } = {};
    const groupNames: string[] = [];
    for (const group in STYLE_GROUPS) if (has(STYLE_GROUPS, group)) groupNames.push(group);
    readGroup(label, stylesGiven, STYLE_OPTIONS, groupNames, styleFlat, 'styles');
    styles['imageUrl'] = styleFlat['imageUrl'];
    styles['autoHeight'] = styleFlat['autoHeight'];
    const stylesObject = isObject(stylesGiven) ? stylesGiven : {};
    for (let i = 0; i < groupNames.length; i++) {
      const group = groupNames[i]!;
      const values: { [name: string]: string | boolean } = {};
      readGroup(label, stylesObject[group], STYLE_GROUPS[group]!, [], values, 'styles.' + group);
      styles[group] = values;
    }
    return { live: top['live'] as boolean, showDeclineButton: top['showDeclineButton'] as boolean, styles: styles as unknown as ResolvedStyles };
  }
}
