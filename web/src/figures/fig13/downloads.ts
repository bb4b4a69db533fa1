// fig13/downloads.ts — what the Figure of claim 10 (`fig13`)'s CSV and JSON downloads hold: its
// document's runs, one row each, and its settings, thresholds and cells (fig15/downloads.ts, the
// same experiment's). Pure.
import { phaseJson, phaseRunsTable } from '../fig15/downloads';

export const fig13Table = phaseRunsTable;
export const fig13Json = phaseJson;
