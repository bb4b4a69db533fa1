// fig12/downloads.ts — what the Figure of claim 10 (`fig12`)'s CSV and JSON downloads hold: its
// document's runs, one row each, and its settings, thresholds and cells (fig14/downloads.ts, the
// same experiment's). Pure.
import { phaseJson, phaseRunsTable } from '../fig14/downloads';

export const fig12Table = phaseRunsTable;
export const fig12Json = phaseJson;
