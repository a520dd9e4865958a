/** The browser's offset from UTC in minutes east (China: 480), as the statistics calls expect. */
export function browserTzOffsetMinutes(date = new Date()): number {
  // getTimezoneOffset counts minutes west of UTC; the API counts east. `|| 0` avoids -0.
  return -date.getTimezoneOffset() || 0;
}
