// permalink-table.test.ts — links already shared open the same views and make the same engine
// configs. tests/unit/permalinks.fixture.json was recorded on main's code (c98926f) before the field
// table replaced the settings code (git show d5384e6:tests/unit/permalink-record.test.ts, the
// recorder): 109 links, one per figure view, run setting, preset and refusal, each parsed and
// applied as the page does over the real precomputed documents. Each is opened here the same way
// (parseLink, the figures' views, lib/lab.svelte.ts Lab.applyLink) and must give the same issues
// (parameter and kind), views, link action and engine config of every slot (compared with the
// engine's defaults under both), and write the same address back (the same parameters), but where
// the old code lost settings from the address (KNOWN: each is checked to reopen to the same configs
// instead). A link that names a slot's run setting the page refuses now runs nothing of that slot
// (lib/lab.svelte.ts Lab.applyLink; main ran the others with the refused one at its default): its form
// holds the rest of what the link set, with the refused value as typed (so it has no config), and
// the address names what is drawn until the reader corrects it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LINKS, initialViews, linkDefaults } from '../../web/src/figures/registry';
import { MAX_VALUE_LENGTH, parseLink, serializeView } from '../../web/src/lib/permalink';
import { Lab } from '../../web/src/lib/lab.svelte';
import { Results } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { SLOT_NAMES, precomputedPath, type SlotName } from '../../web/src/lib/slots';
import { configOf, errorText, referenceOf, type Config } from '../../web/src/lib/fields';
import { reasonText, tableOf } from '../../web/src/lib/settings';
import { settingsDiff } from '../../web/src/lib/runs/entry';
import { uiString } from '../../web/src/lib/text';

interface Row {
  link: string;
  issues: { param: string; kind: string; reason: string }[];
  lang: string | null;
  theme: string | null;
  embed: string | null;
  views: Record<string, object>;
  actions: Record<string, string>;
  configs: Record<string, Config | null>;
  address: string;
}
const FIXTURE: { links: Row[] } = JSON.parse(readFileSync(new URL('./permalinks.fixture.json', import.meta.url), 'utf8'));
const json = (p: string) => JSON.parse(readFileSync(new URL(`../../public/${p}`, import.meta.url), 'utf8'));
const DOCS = Object.fromEntries(SLOT_NAMES.map((n) => [n, json(precomputedPath(n))]));

/** The old code's addresses that lost what the link set (the probe's model sizes, its small model
 *  with a size), and its one action that started a run of the reference's own settings. */
const KNOWN: Record<string, { address?: string; action?: string; why: string }> = {
  '?fig3.model=small&fig3.layers=3': {
    address: 'lang=en&fig3.model=small&fig3.layers=3',
    why: 'main wrote the small run as full-model seeds, batches and depths',
  },
  '?fig3.layers=4': { address: 'lang=en&fig3.layers=4', why: 'main dropped the probe’s model sizes from the address' },
  '?fig3.d=128': { address: 'lang=en&fig3.d=128', why: 'the same' },
  '?fig3.d_ff=256': { address: 'lang=en&fig3.d_ff=256', why: 'the same' },
  '?fig3.batch=2': { address: 'lang=en&fig3.batch=2', why: 'the same' },
  '?fig3.seq=16': { address: 'lang=en&fig3.seq=16', why: 'the same' },
  '?fig3.d=128&fig3.seq=64': { address: 'lang=en&fig3.d=128&fig3.seq=64', why: 'the same' },
  '?fig3.d=512&fig3.d_ff=2048&fig3.batch=2&fig3.seq=32&fig3.depths=6,40&fig3.seeds=1&fig3.batches=1': {
    address: 'lang=en&fig3.seeds=1&fig3.batches=1&fig3.depths=6,40&fig3.d_ff=2048&fig3.batch=2',
    why: 'the same (d 512 and seq 32 are the reference’s)',
  },
  '?fig4.momentum=0.5': { action: 'drawn', why: 'SGD’s momentum with Adam changes nothing: main started a run of the reference’s settings' },
};

/** What opening `q` does, as the live page does it (web/src/page/live-page.svelte.ts) once the
 *  precomputed documents are in; the runs a link would start are recorded, not run. */
function open(q: string) {
  const { state, issues } = parseLink(LINKS, q);
  const results = new Results(new LiveRuns(SLOT_NAMES, null));
  results.usePrecomputed(DOCS);
  const started: string[] = [];
  const ran: Record<string, Config> = {};
  const lab = new Lab({ slot: (n) => results.slot(n), runs: results.runs, recompute: async (n, c) => void (started.push(n), (ran[n] = c)) });
  lab.applyLink(state.parts, issues);
  const views = Object.fromEntries(Object.entries(initialViews()).map(([id, v]) => [id, { ...v, ...state.parts[id] }]));
  const address = serializeView(
    LINKS,
    { lang: state.lang ?? 'en', theme: state.theme, embed: state.embed, parts: { ...views, ...Object.fromEntries(lab.linkParts()) } },
    linkDefaults(),
    { embed: true, theme: state.theme != null || !!state.embed, only: state.embed },
  );
  const refused = new Set(issues.flatMap((i) => (i.group && (SLOT_NAMES as readonly string[]).includes(i.group) ? [i.group as SlotName] : [])));
  // a refused slot's form: the config of the values it holds (its refused field's text aside)
  const configs = Object.fromEntries(
    SLOT_NAMES.map((n) => [n, refused.has(n) ? configOf(lab.forms[n].table, lab.forms[n].reference, lab.forms[n].settings) : lab.forms[n].config]),
  );
  const actions = Object.fromEntries(
    SLOT_NAMES.flatMap((n) =>
      state.parts[n] ? [[n, refused.has(n) ? 'refused' : started.includes(n) ? 'start' : lab.linkAction(n, lab.forms[n].settings).kind]] : [],
    ),
  );
  return { state, issues, views, address, configs, actions, refused, lab, started, ran };
}

/** A config with the engine's defaults under it, only the slot's engine fields. */
const complete = (slot: SlotName, c: Config | null) => (c ? referenceOf(tableOf(slot), c) : null);
/** The slot a figure's run settings were keyed by on main ('probe', 'grid'), by the figure. */
const SLOT_OF: Record<string, SlotName> = { fig3: 'probe', fig4: 'grid' };

let plain: ReturnType<typeof open> | null = null;
const opened = () => (plain ??= open(''));

describe('the permalinks of main (tests/unit/permalinks.fixture.json) open as they did', () => {
  it('has the table', () => expect(FIXTURE.links.length).toBe(109));
  it.each(FIXTURE.links.map((r) => [r.link, r] as const))('%s', (q, want) => {
    const got = open(q);
    // the same parameters refused, for the same cause; a run setting's reason is now its field's
    expect(got.issues.map((i) => [i.param, i.kind])).toEqual(want.issues.map((i) => [i.param, i.kind]));
    got.issues.forEach((i, k) => {
      const was = want.issues[k].reason;
      if (/^fig[34]:err\.|^url\.fig3\.(model|depths)$/.test(was)) expect(i.reason).toMatch(/^field:(probe|grid):/);
      else expect(i.reason).toBe(was);
    });
    expect([got.state.lang ?? null, got.state.theme ?? null, got.state.embed ?? null]).toEqual([want.lang, want.theme, want.embed]);
    // a figure added since the table was recorded (Figure 12's sharpness) opens at its initial view
    const added = Object.fromEntries(Object.entries(got.views).filter(([id]) => !(id in want.views)));
    expect(added).toEqual(Object.fromEntries(Object.keys(added).map((id) => [id, initialViews()[id]])));
    expect(Object.fromEntries(Object.entries(got.views).filter(([id]) => id in want.views))).toEqual(want.views);
    // a slot added since (the table's links cannot name it) opens as it does with no link
    for (const n of SLOT_NAMES) expect(complete(n, got.configs[n]), n).toEqual(complete(n, n in want.configs ? want.configs[n] : opened().configs[n]));
    const known = KNOWN[q];
    const actions = Object.fromEntries(
      Object.entries(want.actions).map(([fig, a]) => [SLOT_OF[fig], got.refused.has(SLOT_OF[fig]) ? 'refused' : (known?.action ?? a)]),
    );
    expect(got.actions).toEqual(actions);
    // nothing of a refused slot started; its form has no config while it holds the refused value
    for (const n of got.refused) {
      expect(got.started).not.toContain(n);
      const field = got.issues.find((i) => i.group === n && i.kind === 'invalid')?.reason.split(':')[2];
      if (field && field !== '*') expect(got.lab.forms[n].text[field], field).toBeDefined();
    }
    // the same parameters and values (in the order the tables give them: Figure 4's optimizer and its
    // settings now come before the run's shape, as in its form), but a refused slot's: the address
    // names what is drawn (the reference) while its form waits for a correction
    const params = (q: string) => [...new URLSearchParams(q)].map(([k, v]) => `${k}=${v}`).sort();
    const group = (p: string) => [...got.refused].some((n) => p.startsWith(`${tableOf(n).figure}.`));
    expect(params(got.address)).toEqual(params(known?.address ?? want.address).filter((p) => !group(p)));
    if (known?.address) {
      // what the address now keeps reopens to the same configs
      const again = open(`?${got.address}`);
      for (const n of SLOT_NAMES) expect(complete(n, again.configs[n]), n).toEqual(complete(n, n in want.configs ? want.configs[n] : opened().configs[n]));
    }
  });
});

// A value a link's run setting carries is the value that runs, or the run does not start: within the
// bounds (the engine's, tightened by the lab's: Figure 4's steps 10 … 1000) the run starts with it
// (or is offered with it: the same config) and its entry lists it; beyond a bound the banner names
// the parameter and its bound, the form holds the value marked, and nothing runs (main ran the
// others with the refused one at its default: `fig4.steps=20000` on real text ran 500 steps).
const TEXT = 'fig4.data=text&fig4.text_lang=en&fig4.placements=post,pre&fig4.lrs=0.001&fig4.warmups=0&fig4.seeds=1';
describe('a link’s run setting runs as given or runs nothing', () => {
  const en = (k: string) => uiString('en', k);
  it.each([
    [`?${TEXT}&fig4.steps=800&fig4.layers=2`, { steps: 800, layers: 2, data: 'text' }],
    [`?${TEXT}&fig4.steps=1000&fig4.layers=2`, { steps: 1000, layers: 2 }],
    ['?fig4.steps=10&fig4.layers=2', { steps: 10, layers: 2 }],
    ['?fig4.steps=20&fig4.seeds=1', { steps: 20, seeds: [0] }],
    ['?fig3.model=small&fig3.seeds=1', { seeds: [0] }],
  ])('%s runs %j', (q, want) => {
    const got = open(q);
    expect(got.issues).toEqual([]);
    const slot = q.startsWith('?fig3') ? 'probe' : 'grid';
    expect(got.started).toEqual([slot]);
    expect(got.ran[slot]).toMatchObject(want);
    // its entry lists each value away from the reference
    const diff = settingsDiff(got.ran[slot], DOCS[slot].config);
    for (const [k, v] of Object.entries(want))
      if (JSON.stringify(v) !== JSON.stringify(DOCS[slot].config[k])) expect(diff, k).toContain(`${k} ${Array.isArray(v) ? v.join(',') : v}`);
  });
  it.each([
    [`?${TEXT}&fig4.steps=20000&fig4.layers=2`, 'fig4.steps', 'from 10 to 1000'],
    [`?${TEXT}&fig4.steps=100001&fig4.layers=2`, 'fig4.steps', 'from 10 to 1000'],
    ['?fig4.steps=20000&fig4.layers=2', 'fig4.steps', 'from 10 to 1000'],
    ['?fig4.steps=9&fig4.seeds=1', 'fig4.steps', 'from 10 to 1000'],
    ['?fig4.steps=1e12&fig4.seeds=1', 'fig4.steps', 'from 10 to 1000'],
    ['?fig4.steps=abc&fig4.seeds=1', 'fig4.steps', 'from 10 to 1000'],
    ['?fig4.layers=25&fig4.steps=20', 'fig4.layers', 'from 1 to 24'],
    ['?fig4.seeds=5&fig4.steps=20', 'fig4.seeds', 'from 1 to 4'],
    ['?fig3.model=small&fig3.seeds=1&fig3.batches=0', 'fig3.batches', 'from 1 to 20'],
  ])('%s runs nothing; the banner and the form name %s (%s)', (q, param, bound) => {
    const got = open(q);
    expect(got.issues.map((i) => [i.param, i.kind])).toEqual([[param, 'invalid']]);
    const slot = param.startsWith('fig3') ? 'probe' : 'grid';
    expect(got.started).toEqual([]);
    const field = param.split('.')[1];
    const form = got.lab.forms[slot as SlotName];
    // the refused value stays in the form, marked; Recompute waits for a correction
    expect(form.text[field]).toBe(new URLSearchParams(q).get(param));
    expect(form.config).toBeNull();
    const said = errorText(form.errors[field], en);
    expect(said).toContain(bound);
    expect(reasonText(got.issues[0].reason, en)).toBe(said);
    // the rest of the link is in the form
    for (const [k, v] of new URLSearchParams(q))
      if (k !== param && k.startsWith('fig4.') && k !== 'fig4.seeds')
        expect(form.shown(form.table.rows.find((r) => r.url === k)!), k).toBe(v.replace(/,/g, ', '));
  });
  it('a refused value longer than a link may carry runs nothing and sits in the form cut, still refused', () => {
    for (const v of ['9'.repeat(10000), Array(300).fill('0.001').join(',')]) {
      const param = v.includes(',') ? 'lrs' : 'steps';
      const got = open(`?fig4.${param}=${v}&fig4.layers=2`);
      expect(got.issues.map((i) => [i.param, i.reason])).toEqual([[`fig4.${param}`, 'url.tooLong']]);
      expect(got.started).toEqual([]);
      const form = got.lab.forms.grid;
      expect(form.text[param]).toBe(`${v.slice(0, MAX_VALUE_LENGTH)}…`);
      expect(Object.keys(form.errors)).toEqual([param]);
      expect(form.config).toBeNull();
    }
  });
  it('a run setting given twice runs nothing either', () => {
    const got = open('?fig4.steps=100&fig4.steps=200&fig4.layers=2');
    expect(got.issues.map((i) => [i.param, i.kind, i.group])).toEqual([['fig4.steps', 'duplicate', 'grid']]);
    expect(got.started).toEqual([]);
    expect(got.lab.forms.grid.values).toEqual({ layers: 2 });
  });
});
