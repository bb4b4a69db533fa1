// permalink-record.test.ts — ONE-OFF recorder, run on main's code (c98926f) before the field table
// replaced the settings code: each permalink below parsed and applied as App.svelte does (parseLink,
// the figures' views, each run group's resolve + fill over the real precomputed documents,
// linkRunAction), and what it made recorded into tests/unit/permalinks.fixture.json: the issues,
// every figure's view, the settings in that day's shape, the engine config each live-run form then
// held (probe, grid, every experiment slot), and the address bar it wrote back. Run with
// LNX_RECORD_PERMALINKS=1; without it this file checks nothing and is skipped.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { FIGURES, LINKS, initialViews, linkDefaults, linkRunAction } from '../../web/src/figures/registry';
import { parseLink, serializeView, type ViewState } from '../../web/src/lib/permalink';
import { Results } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { EXPERIMENT_SLOTS, SLOT_NAMES, precomputedPath, type ExperimentSlot } from '../../web/src/lib/slots';

const LINKS_TODAY: string[] = [
  '',
  '?lang=zh',
  '?lang=en&theme=dark',
  '?embed=fig3',
  '?embed=fig2&lang=en&theme=dark&fig2.layer=3&fig3.seeds=2',
  '?embed=fig4&lang=zh&theme=light&fig4.lrs=0.01',
  '?embed=fig9&lang=en',
  '?fig1.step=4&fig1.ln=open',
  '?fig1.ln=closed',
  '?fig2.layer=3',
  '?fig2.layer=final',
  '?fig3.stat=batch',
  '?fig3.stat=paper',
  '?fig3.model=full',
  '?fig3.model=small',
  '?fig3.model=small&fig3.seeds=3',
  '?fig3.model=small&fig3.layers=3',
  '?fig3.model=small&fig3.depths=2,4,8',
  '?fig3.seeds=2',
  '?fig3.seeds=5',
  '?fig3.batches=4',
  '?fig3.depths=10,6,6',
  '?fig3.depths=6,8,10,12,14',
  '?fig3.depths=1,48',
  '?fig3.seeds=2&fig3.batches=4&fig3.depths=10,6,6',
  '?fig3.layers=4',
  '?fig3.d=128',
  '?fig3.d_ff=256',
  '?fig3.batch=2',
  '?fig3.seq=16',
  '?fig3.d=128&fig3.seq=64',
  '?fig3.d=512&fig3.d_ff=2048&fig3.batch=2&fig3.seq=32&fig3.depths=6,40&fig3.seeds=1&fig3.batches=1',
  '?fig3.seeds=99',
  '?fig3.batches=0',
  '?fig3.depths=',
  '?fig3.depths=6,1000',
  '?fig3.model=huge',
  '?fig3.d=1024',
  '?fig3.stat=mean',
  '?fig4.placements=post,pre,deepnorm',
  '?fig4.placements=pre',
  '?fig4.placements=admin,post',
  '?fig4.lrs=3e-3,1e-3',
  '?fig4.lrs=0.001%2C0.003',
  '?fig4.lrs=5',
  '?fig4.lrs=0.01,0.03',
  '?fig4.warmups=0',
  '?fig4.warmups=300,0,100',
  '?fig4.warmups=2000',
  '?fig4.warmup_shape=cosine',
  '?fig4.warmup_shape=linear',
  '?fig4.seeds=1',
  '?fig4.seeds=4',
  '?fig4.steps=20',
  '?fig4.steps=1e2',
  '?fig4.steps=1000',
  '?fig4.optimizer=sgd',
  '?fig4.optimizer=radam',
  '?fig4.optimizer=adam',
  '?fig4.optimizer=sgd&fig4.momentum=0.5',
  '?fig4.optimizer=sgd&fig4.lrs=0.05,0.15&fig4.momentum=0',
  '?fig4.optimizer=radam&fig4.beta1=0.8&fig4.beta2=0.99',
  '?fig4.beta1=0.8',
  '?fig4.eps=1e-6',
  '?fig4.momentum=0.5',
  '?fig4.optimizer=sgd&fig4.beta1=0.8',
  '?fig4.layers=4',
  '?fig4.d=64',
  '?fig4.d_ff=256',
  '?fig4.batch=2',
  '?fig4.seq=32',
  '?fig4.layers=4&fig4.d=64&fig4.batch=2',
  '?fig4.norm_type=rmsnorm',
  '?fig4.final_norm=off',
  '?fig4.final_norm=on&fig4.placements=pre',
  '?fig4.output=untied',
  '?fig4.input_scale=none',
  '?fig4.placements=pre&fig4.output=untied&fig4.input_scale=none',
  '?fig4.lrs=0.001&fig4.warmups=0,120&fig4.seeds=4&fig4.steps=200&fig4.layers=6&fig4.d=128&fig4.d_ff=512&fig4.batch=2&fig4.seq=32',
  '?fig4.placements=post,deepnorm&fig4.warmups=0',
  '?fig4.placements=pre&fig4.lrs=0.01,0.03&fig4.warmups=0,100',
  '?fig4.lrs=3e-3,1e-3&fig4.warmups=0&fig4.seeds=1&fig4.steps=20',
  '?fig4.lrs=0',
  '?fig4.lrs=-1e-3',
  '?fig4.lrs=1e-3,2e-3,3e-3',
  '?fig4.warmups=1.5',
  '?fig4.seeds=1000',
  '?fig4.steps=1e12',
  '?fig4.steps=5',
  '?fig4.steps=abc&fig4.seeds=1',
  '?fig4.d=1024',
  '?fig4.layers=0',
  '?fig4.optimizer=lion',
  '?fig4.norm_type=batchnorm',
  '?fig4.placements=sideways',
  '?fig4.warmup_shape=square',
  '?fig4.momentum=2',
  '?fig5.perturbation=sign',
  '?fig5.perturbation=random',
  '?fig6.output=untied',
  '?fig6.input=none',
  '?fig6.output=untied&fig6.input=none',
  '?fig8.lr=high',
  '?fig8.lr=low',
  '?fig11.placement=pre',
  '?fig11.placement=post',
  '?fig5.x=1&fig2.zoom=3&utm_medium=mail',
  '?lang=zh&lang=en',
  '?lang=zh&fig1.step=2&fig2.layer=final&fig3.stat=batch&fig3.model=small&fig4.optimizer=sgd&fig4.lrs=0.05&fig5.perturbation=sign&fig6.output=untied&fig8.lr=high&fig11.placement=pre',
];

const json = (p: string) => JSON.parse(readFileSync(new URL(`../../public/${p}`, import.meta.url), 'utf8'));

/** What opening `q` does, as App.svelte does it once the precomputed documents are in. */
function open(q: string) {
  const { state, issues } = parseLink(LINKS, q);
  const results = new Results(new LiveRuns(SLOT_NAMES, null));
  results.usePrecomputed(Object.fromEntries(SLOT_NAMES.map((n) => [n, json(precomputedPath(n))])));
  const d = linkDefaults(results);
  const views = Object.fromEntries(Object.entries(initialViews()).map(([id, v]) => [id, { ...v, ...state.parts[id] }]));
  const settings: Record<string, unknown> = {};
  const actions: Record<string, string> = {};
  for (const f of FIGURES) {
    const asked = f.run && state.parts[f.run.key];
    if (!f.run || !f.slot || !asked) continue;
    const s = f.run.resolve(asked, d[f.run.key]);
    f.run.fill(results, s);
    settings[f.run.key] = s;
    actions[f.id] = linkRunAction(f, s, results, d[f.run.key]).kind;
  }
  const runNow = (f: (typeof FIGURES)[number]) => {
    const slot = results.slot(f.slot!);
    return f.run!.of(f.run!.form(results)) ?? f.run!.of(slot.data?.config);
  };
  const current: ViewState = {
    lang: state.lang ?? 'en',
    theme: state.theme,
    embed: state.embed,
    parts: Object.fromEntries(FIGURES.flatMap((f) => [[f.id, views[f.id]], ...(f.run ? [[f.run.key, runNow(f)]] : [])])),
  };
  const address = serializeView(LINKS, current, linkDefaults(results), { embed: true, theme: state.theme != null || !!state.embed, only: state.embed });
  const configs = {
    probe: FIGURES.find((f) => f.run?.key === 'probe')!.run!.form(results),
    grid: FIGURES.find((f) => f.run?.key === 'grid')!.run!.form(results),
    ...Object.fromEntries((Object.keys(EXPERIMENT_SLOTS) as ExperimentSlot[]).map((k) => [k, results.experimentConfigNow(k)])),
  };
  return {
    link: q,
    issues: issues.map((i) => ({ param: i.param, kind: i.kind, reason: i.reason })),
    lang: state.lang ?? null,
    theme: state.theme ?? null,
    embed: state.embed ?? null,
    views,
    settings,
    actions,
    configs,
    address,
  };
}

describe.skipIf(!process.env.LNX_RECORD_PERMALINKS)('record the permalink table', () => {
  it('writes tests/unit/permalinks.fixture.json', () => {
    const rows = LINKS_TODAY.map(open);
    const out = { recordedOn: 'main c98926f, before the field table', links: rows };
    writeFileSync(new URL('./permalinks.fixture.json', import.meta.url), JSON.stringify(out, null, 1) + '\n');
  });
});
