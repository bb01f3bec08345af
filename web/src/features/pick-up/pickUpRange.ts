const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with the dates typed, in words, or null when the list can be asked for. */
export function pickUpRangeProblem(range: { from: string; to: string }): string | null {
  if (!DATE.test(range.from) || !DATE.test(range.to)) return 'Choose both dates.';
  if (range.to < range.from) return 'The end date cannot be before the start date.';
  return null;
}
