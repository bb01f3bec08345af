import '../crew/crew.css';
import { SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Collapse, Form, Tag } from 'antd';
import { useState } from 'react';
import type { Pilot, UsualRequestResult } from '@crewswap/proto';
import { londonToday } from '@crewswap/proto/browser';
import { useTripSearch } from '../../api/calendars';
import { useIataCodes } from '../../api/iata';
import { AppModal } from '../../shared/AppModal';
import { formatRange } from '../../shared/format';
import { DateField } from '../../shared/DateField';
import { NotAvailable } from '../../shared/NotAvailable';
import { ShapedField } from '../../shared/ShapedField';
import { CrewList } from '../crew/CrewList';
import { padSearchFlight, SEARCH_FLIGHT_MAX, SEARCH_PROBLEMS, searchProblem, searchQuery, shapeSearchAirport, shapeSearchFlight, type SearchProblem } from './tripSearch';

/** Trip Search (Usual Requests): who is on a flight or route on a date, with their duty and a WhatsApp contact. */
export default function TripSearchDialog({ pilot, onClose }: { pilot: Pilot; onClose: () => void }) {
  if (!pilot.usualReq) return <NotAvailable feature="Trip Search" onClose={onClose} />;
  return <TripSearch pilot={pilot} onClose={onClose} />;
}

function TripSearch({ pilot, onClose }: { pilot: Pilot; onClose: () => void }) {
  const [flightNumber, setFlightNumber] = useState('');
  const [airport, setAirport] = useState('');
  const [date, setDate] = useState(londonToday());
  const [problem, setProblem] = useState<SearchProblem | null>(null);
  const iata = useIataCodes();
  const search = useTripSearch();

  const run = () => {
    // Padding happens when the field is left; 'VS12' sent with Enter is incomplete (pilot spec section 5).
    const input = { flightNumber, airport, date };
    const found = searchProblem(input, iata.data?.codes);
    setProblem(found);
    if (found) return;
    search.mutate(searchQuery(input), {
      onSuccess: (answer) =>
        setProblem(answer.results.length === 0 ? { title: answer.title ?? SEARCH_PROBLEMS.noResults.title, text: answer.message ?? SEARCH_PROBLEMS.noResults.text } : null),
    });
  };

  // Both text fields are uppercased as typed, and Enter in either searches.
  const textFields = [
    { id: 'search-flight', label: 'Flight Number', placeholder: 'VS123', maxLength: SEARCH_FLIGHT_MAX, value: flightNumber, onChange: setFlightNumber, shape: shapeSearchFlight, shapeOnBlur: padSearchFlight },
    { id: 'search-airport', label: 'Airport / Route', placeholder: 'LHR or LHR-JFK', maxLength: 7, value: airport, onChange: setAirport, shape: shapeSearchAirport },
  ];

  return (
    <AppModal title="Trip Search" onCancel={onClose} width={640}>
      <p className="muted">Find the pilots on a flight or route on a date. Crew appear only if they have their roster in the app and Master Roster ON.</p>
      <Form layout="vertical" component="div" className="trip-search-form">
        <div className="form-grid three">
          {textFields.map((field) => (
            <ShapedField key={field.id} {...field} autoCapitalize="characters" onPressEnter={run} />
          ))}
          <Form.Item label="Date" htmlFor="search-date">
            <DateField id="search-date" value={date} onChange={setDate} />
          </Form.Item>
        </div>
        <Button type="primary" icon={<SearchOutlined />} loading={search.isPending} onClick={run} block>
          Search
        </Button>
      </Form>
      {problem && <Alert type={problem.title === SEARCH_PROBLEMS.noResults.title ? 'info' : 'error'} showIcon title={problem.title} description={problem.text} className="form-alert trip-search-alert" role="alert" />}
      {search.data && search.data.results.length > 0 && <SearchResults trips={search.data.results} pilot={pilot} />}
    </AppModal>
  );
}

function SearchResults({ trips, pilot }: { trips: UsualRequestResult[]; pilot: Pilot }) {
  return (
    <section aria-label="Search results" className="search-results">
      <p className="muted">
        {trips.length} {trips.length === 1 ? 'trip' : 'trips'} found
      </p>
      <Collapse
        items={trips.map((trip, index) => ({
          key: `${trip.flightNoStart}-${trip.startDate}-${index}`,
          label: (
            <span className="search-result-head">
              <strong>
                {trip.flightNoStart}/{trip.flightNoEnd} {trip.route}
              </strong>
              <span className="muted">{formatRange(trip.startDate, trip.endDate)}</span>
              <span>
                {trip.aircraft && <Tag>{trip.aircraft}</Tag>}
                <Tag color="purple">
                  {trip.crew.length} {trip.crew.length === 1 ? 'pilot' : 'pilots'}
                </Tag>
              </span>
            </span>
          ),
          children: (
            <>
              <h4>Crew</h4>
              <CrewList crew={trip.crew} me={pilot} trip={trip} empty="No pilots with Master Roster ON on this trip." />
              <h4>Duty details</h4>
              {trip.icsDescription ? <pre className="duty-text">{trip.icsDescription}</pre> : <p className="muted">No duty information available</p>}
            </>
          ),
        }))}
      />
    </section>
  );
}
