// main.ts — entry point: global styles (tokens, KaTeX — fonts bundled by Vite, no CDN) and the App.
import 'katex/dist/katex.min.css';
import './styles/tokens.css';
import './styles/app.css';
import { mount } from 'svelte';
import { isolate } from './lib/isolation';

// The live page is a chunk of its own, loaded and evaluated in a task of its own after the first
// paint, so evaluating it never lengthens the task that parses and lays out the article.
const start = () => void import('./App.svelte').then(({ default: App }) => mount(App, { target: document.getElementById('app')! }));

// Where the build wrote the article into the page (scripts/prerender.mjs) and it is shown, let the
// browser paint it before the live page starts building itself behind it: the first frame after
// the parse would otherwise wait for that work (on 2 cores, up to a second more to the figures).
const copy = document.querySelector('[data-prerendered]');
const go = () => {
  if (copy && !document.documentElement.hasAttribute('data-prerender-hidden')) {
    requestAnimationFrame(() => setTimeout(start, 0));
  } else {
    start();
  }
};

// On a static host without COOP/COEP the service worker makes the page cross-origin isolated (the
// threaded engine); a load it did not serve is reloaded once first, before the live page mounts
// (lib/isolation.ts). Production builds only: the dev server sends the headers itself.
if (import.meta.env.PROD) {
  void isolate(import.meta.env.BASE_URL).then((r) => r !== 'reloading' && go());
} else {
  go();
}
