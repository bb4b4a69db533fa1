// page/live-page.svelte.ts — the live page's state and logic, shared by its islands (page/boot.ts:
// each figure, the toolbar, the citation, the footer, made live on its own over the article the
// build wrote) and by an embed (page/Embed.svelte): the link that opened the page and its issues,
// the preferences (language, theme), the current results (precomputed, then live) and their runs,
// the slots' live-run forms and what the link's run settings do with them (lib/lab.svelte.ts Lab),
// each figure's view state (what permalinks carry), the strings and inline renderers, the address
// bar that follows the view, Share's links and snippets, and the downloads.
// Nothing here draws, and nothing here renders the article's prose: the prose is the build's static
// copy and describes the reference (the precomputed results) only, so a reader's run never changes
// a sentence of it; a figure's caption and readouts quote the drawn results (FigureIsland.svelte).
// Leaves out: which islands exist and when they wake (boot.ts, lib/islands.ts).
import { untrack } from 'svelte';
import type { Article, FigureId } from '../content/types';
import {
  FIGURES,
  FIGURE_IDS,
  LINKS,
  figureById,
  figureLabel,
  figureRefLabel,
  figureStrings,
  initialViews,
  linkDefaults,
  type AnyFigure,
} from '../figures/registry';
import { Prefs } from '../lib/prefs.svelte';
import { Results, SLOT_NAMES, type SlotName } from '../lib/result-slots.svelte';
import { fullPath } from '../lib/slots';
import { Lab } from '../lib/lab.svelte';
import { fragmentTarget } from '../lib/fragment';
import { tableOf } from '../lib/settings';
import { LiveRuns } from '../lib/runs/live-runs.svelte';
import { loadArticle } from '../lib/article';
import { renderInline } from '../lib/inline';
import { changedNotes, sameNumbers } from '../lib/prose-numbers';
import { fmtWhen } from '../lib/format';
import { plainInline } from '../lib/plain-inline';
import { figureText, ft as ftKey, tpl, uiString } from '../lib/text';
import { embedLink, embedSnippet, foreignParams, pageLink, parseLink, serializeView, type ViewState } from '../lib/permalink';
import { fileName, provenance, toCsv, toJson, type ExportKind } from '../lib/export';
import { composeSvg, download, svgToPng } from '../lib/export-dom';
import type { EngineReport } from '../lib/engine-line';
import { builtText, heldSlots, linkGroups, slotsOf, type IslandPage } from './island-page';

const BASE = import.meta.env.BASE_URL;

/** The figure the address's #fragment names, or the one it names a part of; null when none. */
function linkedFigure(): FigureId | null {
  const el = fragmentTarget();
  return (el && FIGURE_IDS.find((f) => el.closest(`#${f}`))) || null;
}

export class LivePage implements IslandPage {
  /** the link that opened the page: its state and the parameters it could not use */
  readonly link = parseLink(LINKS, location.search);
  /** ?embed=figN: only that figure, no page chrome */
  readonly embed: FigureId | null = this.link.state.embed ?? null;
  /** parameters that are not ours (utm_…): kept through every rewrite of the address */
  readonly foreign = foreignParams(LINKS, location.search);
  readonly themeInUrl = this.link.state.theme != null;
  /** language and theme as the link validated them (a repeated or invalid one falls back) */
  readonly prefs = new Prefs(
    new URLSearchParams({
      ...(this.link.state.lang && { lang: this.link.state.lang }),
      ...(this.link.state.theme && { theme: this.link.state.theme }),
    }).toString(),
  );
  /** an embed keeps no runs between visits and shows no run list (a blogger's figure is the article's);
   *  the page holds the stored runs of the slots heldSlots names until a figure drawing them is live
   *  (not a slot the link names, even by a refused setting: its form keeps what the link set) */
  readonly results = new Results(new LiveRuns(SLOT_NAMES, this.embed ? null : undefined, this.embed ? [] : heldSlots(linkGroups(this.link))));
  /** each slot's live-run form (the figures' settings) and what a link's run settings do with them */
  readonly lab = new Lab(this.results);
  /** each figure's view state, by figure id, as the link set it (run settings live in `results`) */
  views = $state<Record<string, object>>({});
  /** the link's run settings have been applied (the address bar follows the view from then on) */
  applied = $state(false);
  /** the service worker has cached the site (public/sw.js) */
  offline = $state(false);
  /** which engine runs live computations, once a run has started it (engine/client.ts) */
  engineReport = $state.raw<EngineReport | null>(null);
  article = $state.raw<Article | null>(null);
  articleError = $state('');
  /** why the language link did not switch yet (a run under way would stop: the toolbar says so) */
  leaveNote = $state('');
  /** the article has loaded (or failed to): a figure's strings are there */
  readonly articleReady: Promise<void>;
  /** every slot's precomputed document and the stored runs are in (or failed to load) */
  readonly dataReady: Promise<void>;

  /** `lang`: the language of the page the build wrote (its copy), which wins over the link's (the
   *  guard in index.html has sent the reader to the copy of the language the link asks for) */
  constructor({ lang }: { lang?: Article['lang'] } = {}) {
    const { state } = this.link;
    if (this.embed) document.documentElement.dataset.embed = this.embed;
    // (an embed shows the link's language: it is not the copy's page, which it hides)
    if (lang && !this.embed) this.prefs.lang = lang;
    this.results.lab = !this.embed;
    this.views = Object.fromEntries(Object.entries(initialViews()).map(([id, v]) => [id, { ...v, ...state.parts[id] }]));
    // the run list's messages name a slot by the figures that draw it ("Figure 2, Figure 3")
    this.results.slotLabel = (s) =>
      FIGURES.filter((f) => f.slot === s)
        .map((f) => this.figLabel(f.id))
        .join(', ') || s;
    this.articleReady = loadArticle(this.prefs.lang).then(
      (a) => void (this.article = a),
      (e) => void (this.articleError = e instanceof Error ? e.message : String(e)),
    );
    // the stored runs too: a link's run may be one of them (Lab.linkAction)
    this.dataReady = Promise.all([this.results.loadPrecomputed(BASE), this.results.runs.ready]).then(() => {
      // the link's run settings fill the forms; a short run starts, a longer one is offered (and
      // none where the link's settings of its slot had one refused: the banner and the form say why)
      // (the runs of the figure the link is about first: they share what a link may run by itself)
      const about = this.embed ?? linkedFigure();
      untrack(() => this.lab.applyLink(state.parts, this.link.issues, about ? slotsOf(about) : []));
      this.applied = true;
    });
  }

  /** Whether figure `id` draws now what the build drew, so that its island can be hydrated over the
   *  build's HTML: no slot draws a run of the reader's (a caption quotes other slots' numbers too),
   *  and its view is the initial one. */
  asBuilt(id: FigureId): boolean {
    if (SLOT_NAMES.some((n) => this.results.slot(n).source === 'live' || this.results.slot(n).partial != null)) return false;
    return JSON.stringify(this.views[id]) === JSON.stringify(figureById(id)?.view.initial);
  }

  /** Whether figure `id` draws a slot whose stored runs are held (heldSlots) and wait to be shown. */
  holdsRuns(id: FigureId): boolean {
    return slotsOf(id).some((n) => this.results.runs.holdsEntries(n));
  }

  /** The work figure `id` does ahead on the documents of its slot's held runs (FigureDef.prepare),
   *  one step per document, so that each can have a task of its own before the runs are shown. */
  runsToPrepare(id: FigureId): (() => void)[] {
    const f = figureById(id);
    const docs = f?.slot ? this.results.runs.heldDocs(f.slot) : [];
    if (!docs.length) return [];
    return [
      // the run list's date format (an entry's start), made ahead: its first use reads ICU's data
      () => void fmtWhen(new Date(0).toISOString(), document.documentElement.lang),
      ...(f?.prepare ? docs.map((doc) => () => f.prepare!(doc as never)) : []),
    ];
  }

  /** Show the stored runs of figure `id`'s slots, held until it was live (heldSlots), and fill
   *  their forms with the settings of what they now draw, as applyLink does when they are not
   *  held (lib/lab.svelte.ts showDrawn). Every island reads them from here on. */
  showRuns(id: FigureId) {
    for (const n of slotsOf(id).filter((x) => this.results.runs.holds(x))) {
      this.results.runs.release(n);
      this.lab.showDrawn(n);
    }
  }

  /** The figures whose view the link names, or that show the form of a slot whose run settings it
   *  names (lib/settings.ts Table.figure): their islands wake first (a run may start). */
  linkedFigures(): FigureId[] {
    const { parts } = this.link.state;
    const forms = SLOT_NAMES.filter((n) => parts[n]).map((n) => tableOf(n).figure);
    return FIGURES.filter((f) => parts[f.id] || forms.includes(f.id)).map((f) => f.id);
  }

  /** What a link's settings are compared with: initial views, each slot's form as it opens. */
  defaults = () => linkDefaults();

  // ---- the view and the address bar -------------------------------------------------------------
  /** Share's note when the link carries settings the figure does not draw (not run yet), or ''. */
  notRunNote(f: AnyFigure): string {
    const slot = f.slotOf?.(this.views[f.id] as never) ?? f.slot;
    const diff = slot ? this.lab.notRun(slot) : [];
    return diff.length ? tpl(this.t('share.notRun'), { what: diff.join(' · ') }) : '';
  }

  // the address bar and Share name each slot's run in progress, else what its form holds, else what is drawn
  readonly current = $derived<ViewState>({
    lang: this.prefs.lang,
    theme: this.prefs.theme,
    embed: this.embed ?? undefined,
    parts: Object.fromEntries([...FIGURES.map((f) => [f.id, this.views[f.id]]), ...this.lab.linkParts()]),
  });

  /** The address of the page showing the current view (the address bar's), in `lang` when given. */
  search(lang = this.prefs.lang): string {
    const q = serializeView(LINKS, { ...this.current, lang }, this.defaults(), {
      embed: true,
      theme: this.themeInUrl || !!this.embed,
      only: this.embed ?? undefined,
    });
    const extra = this.foreign.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    return [q, ...extra].filter(Boolean).join('&');
  }

  /** Keep the address bar on the current view once the link has been applied (every 150 ms at
   *  most). Returns the function that stops it. */
  followAddress(): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return $effect.root(() => {
      $effect(() => {
        if (!this.applied) return;
        const search = this.search();
        clearTimeout(timer);
        timer = setTimeout(() => {
          const next = `${location.pathname}?${search}${location.hash}`;
          if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', next);
        }, 150);
      });
      return () => clearTimeout(timer);
    });
  }

  linkTo = (hash = '') => pageLink(LINKS, location.href, this.current, this.defaults(), hash, this.foreign);

  // ---- text ---------------------------------------------------------------------------------------
  t = (key: string) => uiString(this.prefs.lang, key);
  // The article's numbers are the reference's (the precomputed results) and nothing a reader runs
  // changes them (issue 27: the article is the article). A figure's caption and readouts quote the
  // drawn results (a live run once it is shown; a streaming run's from its first drawn curves: Figure 4's
  // caption names the text a run learns while it streams), and a number a live run changed is followed, in
  // visible text, by the reference's value.
  readonly referenceNumbers = $derived(this.results.proseNumbers(this.prefs.lang, 'precomputed'));
  /** a slot draws a run of the reader's, complete or streaming (until then the drawn numbers are the
   *  reference's: computed once) */
  private readonly anyLive = $derived(SLOT_NAMES.some((n) => this.results.slot(n).source === 'live' || this.results.slot(n).partial != null));
  // the same record while its values stay (a streaming grid's document changes every second; most
  // of the numbers it binds do not, and every caption re-renders on a new record)
  private lastNumbers: Record<string, string> | null = null;
  readonly proseNumbers = $derived.by(() => {
    const next = this.anyLive ? this.results.proseNumbers(this.prefs.lang) : this.referenceNumbers;
    if (this.lastNumbers && sameNumbers(next, this.lastNumbers)) return this.lastNumbers;
    return (this.lastNumbers = next);
  });
  readonly changed = $derived(changedNotes(this.proseNumbers, this.referenceNumbers, (article) => tpl(this.t('bound.live'), { article })));
  private warned = new Set<string>();
  private onUnknownKey = (key: string) => {
    if (import.meta.env.DEV && !this.warned.has(key)) {
      this.warned.add(key);
      console.warn(
        key.startsWith('#')
          ? `[prose numbers] {{${key}}} names no figure of web/src/figures/registry.ts`
          : `[prose numbers] unknown key {{${key}}}: add it to web/src/lib/prose-numbers.ts`,
      );
    }
  };
  // "Figure 3", "Figure C": the number follows page order (registry.ts figureNumber), not the id
  figLabel = (id: FigureId) => figureLabel(id, this.t);
  private figureRef = (id: string) => figureRefLabel(id, this.t);
  /** a figure's strings: the drawn results' numbers */
  readonly inline = $derived((s: string) =>
    renderInline(s, { bindings: this.proseNumbers, onUnknownKey: this.onUnknownKey, changed: this.changed, figureLabel: this.figureRef }),
  );
  ftext = (id: FigureId) => figureStrings(this.article, id);
  builtText = (id: FigureId) => builtText(this.article, id);
  /** the figures an embed may name, as a reader knows them: "Figure A (fig6)" */
  readonly embedChoices = $derived(FIGURE_IDS.map((id) => `${this.figLabel(id)} (${id})`));
  figTitle = (id: FigureId) => `${this.figLabel(id)}: ${plainInline(this.ftext(id).title)}`;
  /** a figure's string by key, for the link banner's reasons ('fig4', 'err.steps') */
  issueText = (fig: string, key: string) => ftKey(figureText(this.article, fig as FigureId), key);

  // ---- share and export ---------------------------------------------------------------------------
  embedCode(id: FigureId): string {
    const src = embedLink(LINKS, location.href, id, this.current, this.prefs.theme, this.defaults());
    const h = document.getElementById(id)?.getBoundingClientRect().height ?? 480;
    return embedSnippet(src, this.figTitle(id), h + 40, new URL(`${BASE}embed.js`, location.href).href);
  }

  /** The figure's slot, and what it draws: the growing document while a run streams, a stopped
   *  (cancelled, failed) run's where it is drawn on top (lib/runs/drawn-run.ts), else the result. */
  private drawnBy(f: AnyFigure) {
    const name: SlotName | null = f.slotOf?.(this.views[f.id]) ?? f.slot;
    const slot = name ? this.results.slot(name) : null;
    const streaming = slot?.partial != null;
    const top = slot?.drawnRun ?? null;
    const stopped = !streaming && top != null && top.state !== 'done' ? top : null;
    return { slot, streaming, stopped, state: top?.state ?? null, doc: slot ? slot.drawn : null };
  }

  private provenanceFor(f: AnyFigure) {
    const { slot, streaming, stopped, state, doc } = this.drawnBy(f);
    const own = slot ? null : (f.ownDoc?.() ?? null);
    return provenance({
      figure: f.id,
      title: this.figTitle(f.id),
      url: this.linkTo(f.id),
      source: own ? (own.liveAt ? 'live' : 'precomputed') : !slot ? 'static' : streaming || stopped ? 'live' : (slot.source ?? 'precomputed'),
      doc: (own?.doc ?? doc) as never,
      liveAt: own ? own.liveAt : streaming ? null : stopped ? stopped.entry.finishedAt : (slot?.liveAt ?? null),
      now: new Date(),
      lang: this.prefs.lang,
      view: f.provenanceView(this.views[f.id], { streaming, state }),
    });
  }

  private numbersOf = (f: AnyFigure, doc = this.drawnBy(f).doc) =>
    f.numbers({ text: this.ftext(f.id), proseNumbers: this.proseNumbers, view: this.views[f.id], doc });

  /** The document a figure's CSV and JSON hold: the drawn one, or where that is a reference the
   *  page loads as a summary (lib/slots.ts fullPath), the whole document it was cut from. */
  private async downloadDoc(f: AnyFigure) {
    const { slot, doc } = this.drawnBy(f);
    const full = slot && doc != null && doc === slot.precomputed ? fullPath(slot.name) : null;
    if (!full) return doc;
    const res = await fetch(`${BASE}${full}`);
    if (!res.ok) throw new Error(`${full}: HTTP ${res.status}`);
    return res.json();
  }

  async exportFigure(id: FigureId, kind: ExportKind) {
    const f = figureById(id);
    if (!f) throw new Error(`${id} is not a figure`);
    const prov = this.provenanceFor(f);
    const name = fileName(f.id, prov.source, kind, prov.computed ?? prov.exported);
    if (kind === 'csv') return download(toCsv(this.numbersOf(f, await this.downloadDoc(f)).table, prov), name, 'text/csv;charset=utf-8');
    if (kind === 'json') return download(toJson(this.numbersOf(f, await this.downloadDoc(f)).json, prov), name, 'application/json');
    const el = document.getElementById(f.id);
    if (!el) throw new Error(`#${f.id} is not on the page`);
    const composed = composeSvg(el, prov);
    if (kind === 'svg') return download(composed.svg, name, 'image/svg+xml');
    download(await svgToPng(composed, prov), name, 'image/png');
  }

  /** Put the link to `id` (a section, a figure) in the address bar and the clipboard. */
  async copyLink(id: string) {
    const url = this.linkTo(id);
    history.replaceState(history.state, '', url);
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      /* no clipboard permission: the address bar has the link */
    }
  }
}
