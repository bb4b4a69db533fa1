// main.ts — entry point: global styles (tokens, KaTeX — fonts bundled by Vite, no CDN), then the
// live page (page/boot.ts), a chunk of its own loaded after the first paint.
//
// The page the build wrote (scripts/prerender.mjs) is the page: its article and figures paint
// before any script has run, and the live page makes its parts live one by one where they are
// (islands: lib/islands.ts), so no task after the first paint builds the page again.
import 'katex/dist/katex.min.css';
import './styles/tokens.css';
import './styles/app.css';
import { isolate } from './lib/isolation';
import { keepPlace, restoreSpot } from './page/spot';
import { holdFragment, keepInPlace } from './lib/fragment';
import { headroom } from './lib/headroom';

const html = document.documentElement;
// the reader switched language on the other copy, or reloads this one: the same place in the
// article here (kept whenever the page is hidden or left)
const placed = restoreSpot();
keepPlace();
// a link to a figure or a section lands on it and stays there while the parts above it are laid out
holdFragment(window, 8000, { initial: !placed });
// and what the reader sees stays where it is as the parts above it are laid out (scrolling up from there)
keepInPlace();
// the switches (language, theme) come back at the top of the window when the reader scrolls up
const switches = document.querySelector<HTMLElement>('.masthead > [data-island="toolbar"]');
if (switches) headroom(switches);

// Let the browser paint the article before the live page starts (the first frame after the parse
// would otherwise wait for that work), then load it in a task of its own, and start it in another:
// the chunk's evaluation and the start are each about as long as a task may be (bench/mainthread_bench.mjs
// "boot: evaluate", "boot: start"), and input goes between them.
const start = () => void import('./page/boot').then((m) => setTimeout(() => void m.start(), 0));
const go = () => requestAnimationFrame(() => setTimeout(start, 0));

// index.html's guard is sending the reader to the other language's copy: nothing to start here.
// On a static host without COOP/COEP the service worker makes the page cross-origin isolated (the
// threaded engine); a load it did not serve is reloaded once first, before the live page starts
// (lib/isolation.ts). Production builds only: the dev server sends the headers itself.
if (!html.hasAttribute('data-leaving')) {
  if (import.meta.env.PROD) void isolate(import.meta.env.BASE_URL).then((r) => r !== 'reloading' && go());
  else go();
}
