// register-ts.mjs — `node --import ./tests/gpu-node/register-ts.mjs …`: lets Node import .ts files
// (ts-hooks.mjs).
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
