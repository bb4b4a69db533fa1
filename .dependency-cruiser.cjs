// The page's layering, checked in `npm test` (scripts/check-habits.sh): no import circles; lib/
// (logic below the components) never imports figures/ or components; figures reach the engine only
// through web/src/engine/ (its typed facade); nothing imports the prerender entry but the scripts.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the module that both sides need (lib/slots.ts did for the slot table).',
      from: {},
      // a component that renders itself (Block.svelte: a block inside a block) is recursion, not a circle
      to: { circular: true, pathNot: '^web/src/components/article/Block\\.svelte$' },
    },
    {
      name: 'lib-below-ui',
      severity: 'error',
      comment: 'lib/ is below the figures and the components: it never imports them.',
      from: { path: '^web/src/lib/' },
      to: { path: '^web/src/(figures|components)/' },
    },
    {
      name: 'engine-through-facade',
      severity: 'error',
      comment: 'Figures and components reach the engine through web/src/engine/, never the wasm glue in public/.',
      from: { path: '^web/src/(figures|components)/' },
      to: { path: '^public/wasm/' },
    },
    {
      name: 'no-prerender-from-page',
      severity: 'error',
      comment: 'prerender/ is the build\'s entry: the page does not import it.',
      from: { path: '^web/src/(lib|figures|components|engine|content)/' },
      to: { path: '^web/src/prerender/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.svelte', '.mjs'] },
  },
};
