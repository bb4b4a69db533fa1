#!/usr/bin/env node
// wasm-relaxed-fma.mjs FILE.wasm — renumbers f32x4.relaxed_madd in a module linked by Emscripten
// 3.1.6 (the FMA flavour: lnx-st-fma, lnx-mt-fma, gemm_bench-*-fma), in place.
//
// Why: 3.1.6's clang 14 and Binaryen 108 know relaxed SIMD only as the 2021 prototype, whose
// fused multiply-add is `0xfd 0xaf 0x01`; the standard (and every browser that ships relaxed SIMD)
// numbers f32x4.relaxed_madd `0xfd 0x85 0x02` and rejects the prototype opcode. Both are three
// bytes and take the same three v128 operands, so the renumbering changes nothing else
// (../shared/research/performance-anchors.md, "Emscripten 3.1.6 (Debian) and relaxed SIMD").
//
// Safety: the bytes are rewritten inside the code section only, and only as many as the relaxed_fma
// instructions Binaryen's disassembler (wasm-dis) reads in the module; the result must then validate
// in V8 with relaxed SIMD on, and must hold no other relaxed instruction (each would need its own
// renumbering). A LEB immediate can hold the same three bytes (an `i32.const 22525`, the address of
// a string, is `0x41 0xfd 0xaf 0x01`): when the code section holds one or two more matches than
// instructions, each way of leaving that many matches as they are is tried, and the one whose result
// validates is kept (a real prototype opcode left in place does not validate; an immediate left as
// it is changes nothing), so it must be exactly one. Any mismatch stops the build with a message.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const PROTOTYPE = [0xfd, 0xaf, 0x01];
const STANDARD = [0xfd, 0x85, 0x02];

/** [start, end) of the code section's payload (section id 10). */
export function codeSection(bytes) {
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a WebAssembly module');
  let i = 8;
  const leb = () => {
    let v = 0,
      shift = 0,
      b;
    do {
      b = bytes[i++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  };
  while (i < bytes.length) {
    const id = bytes[i++];
    const size = leb();
    if (id === 10) return [i, i + size];
    i += size;
  }
  throw new Error('the module has no code section');
}

/** Offsets of `pattern` in bytes[start, end). */
export function find(bytes, pattern, start = 0, end = bytes.length) {
  const at = [];
  for (let i = start; i + pattern.length <= end; i++) if (pattern.every((b, k) => bytes[i + k] === b)) at.push(i);
  return at;
}

function main(file) {
  const bytes = readFileSync(file);
  const [start, end] = codeSection(bytes);
  const at = find(bytes, PROTOTYPE, start, end);
  const text = execFileSync('wasm-dis', [file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const expected = (text.match(/\brelaxed_fma\b/g) ?? []).length;
  const others = [...new Set(text.match(/\b[fi]\d+x\d+\.relaxed_\w+/g) ?? [])].filter((n) => !/\.relaxed_fma$/.test(n));
  if (others.length) throw new Error(`${file}: relaxed instructions this script does not renumber: ${others.join(', ')}`);
  if (expected === 0) throw new Error(`${file}: no relaxed_fma in the module (was it compiled with -mrelaxed-simd?)`);
  const extra = at.length - expected;
  if (extra < 0 || extra > 2)
    throw new Error(`${file}: ${at.length} prototype opcodes in the code section but wasm-dis reads ${expected} relaxed_fma; not rewritten`);
  setFlagsFromString('--experimental-wasm-relaxed-simd'); // Node 20's V8 11.3 ships it behind a flag
  const fits = leaveOut(at.length, extra)
    .map((skip) =>
      renumbered(
        bytes,
        at.filter((_, k) => !skip.includes(k)),
      ),
    )
    .filter((b) => WebAssembly.validate(b));
  if (fits.length !== 1)
    throw new Error(
      extra
        ? `${file}: ${at.length} prototype opcodes in the code section, ${expected} relaxed_fma, and ${fits.length} ways of telling them apart validate; not rewritten`
        : `${file}: does not validate after the renumbering`,
    );
  writeFileSync(file, fits[0]);
  console.log(
    `${file}: ${expected} f32x4.relaxed_madd renumbered (0xfd 0xaf 0x01 → 0xfd 0x85 0x02)${extra ? `; ${extra} look-alike immediate(s) left as they were` : ''}`,
  );
}

/** Every set of `k` indices among 0 … n−1 (k ≤ 2). */
export function leaveOut(n, k) {
  if (k === 0) return [[]];
  const out = [];
  for (let a = 0; a < n; a++) {
    if (k === 1) out.push([a]);
    else for (let b = a + 1; b < n; b++) out.push([a, b]);
  }
  return out;
}

/** A copy of `bytes` with the standard opcode at each offset of `at`. */
function renumbered(bytes, at) {
  const out = Buffer.from(bytes);
  for (const i of at) for (let k = 0; k < STANDARD.length; k++) out[i + k] = STANDARD[k];
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.length !== 3) {
    console.error('usage: node scripts/wasm-relaxed-fma.mjs FILE.wasm');
    process.exit(2);
  }
  try {
    main(process.argv[2]);
  } catch (e) {
    console.error(`wasm-relaxed-fma: ${e.message}`);
    process.exit(1);
  }
}
