// runs/import-worker.ts — reads and checks a run list file off the page's main thread: the file's
// text, JSON.parse and every check of entry.ts / doc-check.ts run here, so a 40 MB file (or one
// that nests 100,000 deep) never blocks a tap or a key. It answers with the ImportResult the page
// would have computed itself (runs/import-file.ts).
import { docProblem } from './doc-check';
import { parseRunsFile, unreadableFile, type ImportResult } from './entry';

export interface ImportRequest {
  file: Blob;
  fileName: string;
  slots: readonly string[];
}

self.onmessage = async (ev: MessageEvent<ImportRequest>) => {
  const { file, fileName, slots } = ev.data;
  let result: ImportResult;
  try {
    result = parseRunsFile(await file.text(), fileName, slots, docProblem);
  } catch (e) {
    // parseRunsFile never throws; a failure to read the file is said like an unreadable file
    result = unreadableFile(fileName, e);
  }
  (self as unknown as Worker).postMessage(result);
};
