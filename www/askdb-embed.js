// askdb-embed.js: the <askdb-demo> tag, for documentation pages that embed askdb as a live demo.
//
//   <script src="askdb/askdb-embed.js" defer></script>
//   <askdb-demo db="data/music.sqlite" replay="data/top-genres.askdb.json"
//               q="Which five genres sold the most?">
//     <a href="askdb/index.html?db=…">Open the demo</a>   (what a reader without scripts sees)
//   </askdb-demo>
//
// The tag becomes an iframe of askdb's compact page (index.html?embed=1, beside this script):
// - lazily: the frame is made when the tag comes near the screen;
// - as tall as its content: askdb posts its height, and only a message from askdb's own
//   origin, sent by that very frame, is believed;
// - in the host page's colours: light or dark as the page behind the tag, and again when the
//   page changes theme (askdb is told by a message; `theme="light|dark"` forces one);
// - under a strict Content-Security-Policy: no inline script or style, no eval, styles set
//   through the CSSOM only; the host needs `script-src` for this file and `frame-src` for
//   askdb's origin (docs/embed.md).
// Attributes: db, replay, notes (addresses relative to the host page, like an <img src>), q,
// mode ("safe"), hide ("customers.email,payments"), theme, lang (the page's language: "ja";
// without it, the language of the host page around the tag, as HTML inherits `lang`), endpoint (an askdb-proxy demo's
// absolute address, docs/live-demos.md: readers ask their own questions with no key, the
// author's proxy pays), provider, base_url, model, title,
// height (the frame's height before askdb reports one, CSS), src (askdb's page, when it is not
// beside this script). No dependencies, no build step.
(() => {
  'use strict';
  if (!window.customElements || window.customElements.get('askdb-demo')) return;

  const SCRIPT = document.currentScript;
  /** askdb's page: index.html beside this script. */
  const DEFAULT_PAGE = new URL('index.html', (SCRIPT && SCRIPT.src) || document.baseURI);
  const FILES = ['db', 'replay', 'notes'];
  const PASSED = ['q', 'mode', 'hide', 'endpoint', 'provider', 'base_url', 'model'];
  const HEIGHT_MESSAGE = 'askdb:height';
  const THEME_MESSAGE = 'askdb:theme';
  /** A frame is made this far before it scrolls into view. */
  const NEAR = '400px 0px';
  const FIRST_HEIGHT = '26rem';
  /** askdb never reports more than this (CSS px): a bound on what a message can do to the host. */
  const TALLEST = 20000;

  /** `target` (absolute) as an address relative to `base` when both share an origin. */
  function relativeTo(target, base) {
    if (target.origin !== base.origin) return target.href;
    const from = base.pathname.split('/').slice(0, -1);
    const to = target.pathname.split('/');
    let same = 0;
    while (same < from.length && same < to.length - 1 && from[same] === to[same]) same += 1;
    const up = from.slice(same).map(() => '..');
    return [...up, ...to.slice(same)].join('/') + target.search;
  }

  /** 'light' or 'dark' from a CSS colour's brightness; null when it is (nearly) transparent. */
  function brightnessOf(css) {
    const parts = /^rgba?\(([^)]+)\)$/.exec(css.trim());
    if (!parts) return null;
    const [r, g, b, a = 1] = parts[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    if (!(a > 0.5)) return null;
    return (r * 299 + g * 587 + b * 114) / 1000 < 128 ? 'dark' : 'light';
  }

  /** The theme of the host page behind `element`: the first opaque background up the tree. */
  function hostTheme(element) {
    for (let node = element; node; node = node.parentElement) {
      const shade = brightnessOf(getComputedStyle(node).backgroundColor);
      if (shade) return shade;
    }
    // Nothing painted: the browser's canvas, dark only when the page's color-scheme allows it
    // (and, for "light dark", when the reader prefers it).
    const scheme = (getComputedStyle(document.documentElement).colorScheme || 'normal').split(/\s+/);
    const prefersDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    return scheme.includes('dark') && (!scheme.includes('light') || prefersDark) ? 'dark' : 'light';
  }

  class AskdbDemo extends HTMLElement {
    static get observedAttributes() {
      return [...FILES, ...PASSED, 'theme', 'src'];
    }

    connectedCallback() {
      this.style.display = 'block';
      if (!this.dataset.state) this.dataset.state = 'waiting';
      if (this.frame || this.observer) return;
      if (!('IntersectionObserver' in window)) {
        this.load();
        return;
      }
      this.observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) this.load();
        },
        { rootMargin: NEAR },
      );
      this.observer.observe(this);
    }

    disconnectedCallback() {
      this.observer?.disconnect();
      this.observer = null;
    }

    attributeChangedCallback() {
      if (this.frame) this.frame.src = this.address();
    }

    /** askdb's page for this tag. */
    page() {
      const src = this.getAttribute('src');
      return src ? new URL(src, document.baseURI) : DEFAULT_PAGE;
    }

    /** The theme askdb is given: the attribute's, or the host page's. */
    theme() {
      const forced = (this.getAttribute('theme') || '').trim().toLowerCase();
      return forced === 'light' || forced === 'dark' ? forced : hostTheme(this);
    }

    /** askdb's compact page with this tag's parameters. */
    address() {
      const page = this.page();
      const params = new URLSearchParams({ embed: '1' });
      for (const name of FILES) {
        const value = this.getAttribute(name);
        if (value) params.set(name, relativeTo(new URL(value, document.baseURI), page));
      }
      for (const name of PASSED) {
        const value = this.getAttribute(name);
        if (value) params.set(name, value);
      }
      // The language of the tag as HTML reads it: its own `lang`, else its nearest ancestor's
      // (a Japanese documentation page, <html lang="ja">, shows its demos in Japanese).
      const language = (this.closest('[lang]')?.getAttribute('lang') || '').trim();
      if (language) params.set('lang', language);
      this.shownTheme = this.theme();
      params.set('theme', this.shownTheme);
      return `${page.href.split(/[?#]/)[0]}?${params}`;
    }

    /** Makes the frame (once), in place of the fallback link. */
    load() {
      this.observer?.disconnect();
      this.observer = null;
      if (this.frame) return;
      const frame = document.createElement('iframe');
      frame.title = this.getAttribute('title') || `askdb: ${this.getAttribute('q') || 'a live demo'}`;
      frame.style.display = 'block';
      frame.style.width = '100%';
      frame.style.height = this.getAttribute('height') || FIRST_HEIGHT;
      frame.style.border = '1px solid rgba(128, 128, 128, 0.35)';
      frame.style.borderRadius = '8px';
      frame.style.boxSizing = 'border-box';
      frame.src = this.address();
      this.frame = frame;
      this.replaceChildren(frame);
      this.dataset.state = 'loaded';
      demos.add(this);
    }

    /** A message from askdb's page in this tag's frame. */
    receive(data) {
      if (data.type === HEIGHT_MESSAGE && Number.isFinite(data.height) && data.height > 0) {
        this.frame.style.height = `${Math.ceil(Math.min(data.height, TALLEST))}px`;
      }
    }

    /** Tells askdb the host's theme when it has changed. */
    followTheme() {
      if (!this.frame?.contentWindow) return;
      const theme = this.theme();
      if (theme === this.shownTheme) return;
      this.shownTheme = theme;
      this.frame.contentWindow.postMessage({ type: THEME_MESSAGE, theme }, this.page().origin);
    }
  }

  /** The tags whose frame is made. */
  const demos = new Set();

  // Height: only from askdb's origin, and only from the frame the message names as its source.
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || typeof data !== 'object') return;
    for (const demo of demos) {
      if (demo.frame.contentWindow === event.source && event.origin === demo.page().origin) {
        demo.receive(data);
      }
    }
  });

  // The host's theme: a class or style on <html> or <body> (theme switches), the system's
  // preference, or the end of a colour transition.
  const followAll = () => demos.forEach((demo) => demo.followTheme());
  const watchRoot = () => {
    const changes = new MutationObserver(followAll);
    for (const root of [document.documentElement, document.body]) {
      if (root) changes.observe(root, { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] });
    }
  };
  if (document.body) watchRoot();
  else document.addEventListener('DOMContentLoaded', watchRoot, { once: true });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', followAll);
  document.addEventListener('transitionend', followAll, true);

  window.customElements.define('askdb-demo', AskdbDemo);
})();
