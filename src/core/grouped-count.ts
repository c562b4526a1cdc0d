/** A count as people read it: a whole number with thousands separators (`43,200`), one style for every report. */
const GROUPED = new Intl.NumberFormat('en-US');

export const groupedCount = (v: number): string => GROUPED.format(Math.round(v));
