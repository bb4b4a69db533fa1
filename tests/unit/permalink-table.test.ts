// permalink-table.test.ts — links already shared open the same views and make the same engine
// configs. tests/unit/permalinks.fixture.json was recorded on main's code (c98926f) before the field
// table replaced the settings code (git show d5384e6:tests/unit/permalink-record.test.ts, the
// recorder): 109 links, one per figure view, run setting, preset and refusal, each parsed and
// applied as the page does over the real precomputed documents. Each is opened here the same way
// (parseLink, the figures' views, lib/lab.svelte.ts Lab.applyLink) and must give the same issues
// (parameter and kind), views, link action and engine config of every slot (compared with the
// engine's defaults under both), and write the same address back (the same parameters), but where
// the old code lost settings from the address (KNOWN: each is checked to reopen to the same configs
// instead).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LINKS, initialViews, linkDefaults } from '../../web/src/figures/registry';
import { parseLink, serializeView } from '../../web/src/lib/permalink';
import { Lab } from '../../web/src/lib/lab.svelte';
import { Results } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { SLOT_NAMES, precomputedPath, type SlotName } from '../../web/src/lib/slots';
import { referenceOf, type Config } from '../../web/src/lib/fields';
import { tableOf } from '../../web/src/lib/settings';

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
  const lab = new Lab({ slot: (n) => results.slot(n), runs: results.runs, recompute: async (n) => void started.push(n) });
  lab.applyLink(state.parts);
  const views = Object.fromEntries(Object.entries(initialViews()).map(([id, v]) => [id, { ...v, ...state.parts[id] }]));
  const address = serializeView(
    LINKS,
    { lang: state.lang ?? 'en', theme: state.theme, embed: state.embed, parts: { ...views, ...Object.fromEntries(lab.linkParts()) } },
    linkDefaults(),
    { embed: true, theme: state.theme != null || !!state.embed, only: state.embed },
  );
  const configs = Object.fromEntries(SLOT_NAMES.map((n) => [n, lab.forms[n].config]));
  const actions = Object.fromEntries(
    SLOT_NAMES.flatMap((n) => (state.parts[n] ? [[n, started.includes(n) ? 'start' : lab.linkAction(n, lab.forms[n].settings).kind]] : [])),
  );
  return { state, issues, views, address, configs, actions };
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
    const actions = Object.fromEntries(Object.entries(want.actions).map(([fig, a]) => [SLOT_OF[fig], known?.action ?? a]));
    expect(got.actions).toEqual(actions);
    // the same parameters and values (in the order the tables give them: Figure 4's optimizer and its
    // settings now come before the run's shape, as in its form)
    const params = (q: string) => [...new URLSearchParams(q)].map(([k, v]) => `${k}=${v}`).sort();
    expect(params(got.address)).toEqual(params(known?.address ?? want.address));
    if (known?.address) {
      // what the address now keeps reopens to the same configs
      const again = open(`?${got.address}`);
      for (const n of SLOT_NAMES) expect(complete(n, again.configs[n]), n).toEqual(complete(n, n in want.configs ? want.configs[n] : opened().configs[n]));
    }
  });
});
