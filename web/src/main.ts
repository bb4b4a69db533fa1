// main.ts — entry point: global styles (tokens, KaTeX — fonts bundled by Vite, no CDN) and the App.
import 'katex/dist/katex.min.css';
import './styles/tokens.css';
import './styles/app.css';
import { mount } from 'svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
