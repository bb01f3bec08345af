/** The airports of a trip's route ('SEA-LAX' is SEA and LAX): what a wish's destinations are checked against. */
export function airportsOf(route: string): string[] {
  return route
    .split('-')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code.length > 0);
}

/** A wish's own conditions on an offer, beside the swap rule: one of its airports, a start inside its dates (wishAcceptsSql in SQL). */
export function wishAccepts(wish: { destinations: string[]; startDate: string | null; endDate: string | null }, offer: { route: string; startDate: string }): boolean {
  const airports = airportsOf(offer.route);
  if (!wish.destinations.some((code) => airports.includes(code))) return false;
  return !(wish.startDate && offer.startDate < wish.startDate) && !(wish.endDate && offer.startDate > wish.endDate);
}
