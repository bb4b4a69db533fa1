// main.ts — entry point: global styles (tokens, KaTeX — fonts bundled by Vite, no CDN) and the App.
import 'katex/dist/katex.min.css';
import './styles/tokens.css';
import './styles/app.css';
import { mount } from 'svelte';
import App from './App.svelte';

const start = () => mount(App, { target: document.getElementById('app')! });

// Where the build wrote the article into the page (scripts/prerender.mjs) and it is shown, let the
// browser paint it before the live page starts building itself behind it: the first frame after
// the parse would otherwise wait for that work (on 2 cores, up to a second more to the figures).
const copy = document.querySelector('[data-prerendered]');
if (copy && !document.documentElement.hasAttribute('data-prerender-hidden')) {
  requestAnimationFrame(() => setTimeout(start, 0));
} else {
  start();
}
