// runs/import-file.ts — a run list file read and checked in a worker (import-worker.ts) when the
// browser has workers, else here (tests, Node); either way the same ImportResult.
import { docProblem } from './doc-check';
import { parseRunsFile, type ImportResult } from './entry';
import type { ImportRequest } from './import-worker';

export async function readRunsFile(file: Blob, fileName: string, slots: readonly string[]): Promise<ImportResult> {
  if (typeof Worker === 'undefined') return parseRunsFile(await file.text(), fileName, slots, docProblem);
  const w = new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module', name: 'lnx-import' });
  try {
    return await new Promise<ImportResult>((resolve, reject) => {
      w.onmessage = (ev: MessageEvent<ImportResult>) => resolve(ev.data);
      w.onerror = (ev) => reject(new Error(ev.message || 'the import worker failed'));
      w.postMessage({ file, fileName, slots: [...slots] } satisfies ImportRequest);
    });
  } finally {
    w.terminate();
  }
}
