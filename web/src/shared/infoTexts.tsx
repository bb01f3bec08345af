import { AppModal } from './AppModal';

/** Texts shared by registration and Edit My Details. */
const LTC_INFO =
  'LTCs can mark trips as Training duties. If a Training Trip is offered for swap, only other LTCs will see it in Find Swaps and Swap Alert notifications.';

function MasterRosterInfo() {
  return (
    <div className="stack">
      <p>
        With Master Roster <strong>ON</strong> your trips are visible to other pilots and you get Trip Search, the Master
        Calendar, the Crossover Calendar, the Swap Calendar, swap alerts, Crew on Trip and Crew Links.
      </p>
      <p>
        With Master Roster <strong>OFF</strong> you lose Trip Search, the Master Calendar and the Crossover Calendar; other
        pilots only see your swap offers and, on a shared trip, that you are crew. The Swap Calendar, alerts, Crew on Trip
        and Crew Links stay available.
      </p>
      <table className="info-table">
        <thead>
          <tr>
            <th scope="col">Feature</th>
            <th scope="col">ON</th>
            <th scope="col">OFF</th>
          </tr>
        </thead>
        <tbody>
          {[
            ['Trip Search', true, false],
            ['Master Calendar', true, false],
            ['Crossover Calendar', true, false],
            ['Swap Calendar', true, true],
            ['Swap alerts', true, true],
            ['Crew on Trip', true, true],
            ['Crew Links', true, true],
          ].map(([name, on, off]) => (
            <tr key={String(name)}>
              <td>{name}</td>
              <td>{on ? 'Yes' : 'No'}</td>
              <td>{off ? 'Yes' : 'No'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Turning Master Roster off means it cannot be turned back on for 30 days.</p>
    </div>
  );
}

export type RoleInfo = 'ltc' | 'master';

/** About LTC and About Master Roster, as Register and Edit My Details show them. */
export function RoleInfoDialog({ info, onClose }: { info: RoleInfo | null; onClose: () => void }) {
  return (
    <AppModal open={info !== null} title={info === 'ltc' ? 'LTC (Trainer)' : 'Master Roster'} onCancel={onClose}>
      {info === 'ltc' ? <p>{LTC_INFO}</p> : <MasterRosterInfo />}
    </AppModal>
  );
}
