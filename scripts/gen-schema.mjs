// gen-schema.mjs — `npm run gen:schema`: asks the built WebAssembly engine (public/wasm/lnx-st.*)
// for its schema and writes what is generated from it (scripts/schema-codegen.mjs): the page's
// TypeScript module web/src/generated/engine-schema.ts and the reference tables of
// docs/json-schema.md. Run it after changing a field, a placement or an optimizer in the engine.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEngine } from './load-engine.mjs';
import { DOCS_PATH, TS_PATH, renderDocs, renderTs } from './schema-codegen.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const m = await loadEngine('st');
const schema = JSON.parse(m.schemaJson());

const ts = join(root, TS_PATH);
mkdirSync(dirname(ts), { recursive: true });
writeFileSync(ts, renderTs(schema));
const docs = join(root, DOCS_PATH);
writeFileSync(docs, renderDocs(schema, readFileSync(docs, 'utf8')));
console.log(`wrote ${TS_PATH} and the reference of ${DOCS_PATH} (engine ${schema.engine.version})`);
