import { render, screen } from '@testing-library/react';
import { TripValue } from './TripValue';

describe('the value line', () => {
  it('shows days, nights, block and sectors of a trip with times', () => {
    render(<TripValue trip={{ startDate: '2026-11-10', endDate: '2026-11-13', nightsAway: 3, blockMinutes: 1000, landings: 2 }} />);
    expect(screen.getByText('4 days · 3 nights · block 16:40 · 2 sectors')).toBeInTheDocument();
  });

  it('leaves out what is not known: a typed trip without times shows its days and nights', () => {
    render(<TripValue trip={{ startDate: '2026-11-10', endDate: '2026-11-12', nightsAway: 2, blockMinutes: null, landings: null }} />);
    expect(screen.getByText('3 days · 2 nights')).toBeInTheDocument();
  });
});
