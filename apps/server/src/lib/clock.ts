/** Source of the current time; tests inject a fake one. */
export type TClock = { now(): Date };

/** The real clock. */
export const systemClock: TClock = { now: () => new Date() };
