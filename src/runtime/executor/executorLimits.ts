// Defaults of the executor's limits, shared by the plan executor and its scheduler without importing each other.

/** Events kept per tool (a script that writes more is cut off with a warning). */
export const DEFAULT_MAX_EVENTS_PER_TOOL = 1000;
