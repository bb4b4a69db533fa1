// fig14/downloads.ts — what the Figure of claim 9 (`fig14`)'s CSV and JSON downloads hold: its
// document's runs, one row each, and its settings, thresholds and cells (fig15/downloads.ts, the
// same experiment's). Pure.
import { phaseJson, phaseRunsTable } from '../fig15/downloads';

export const fig14Table = phaseRunsTable;
export const fig14Json = phaseJson;
