import type { SettingsClient } from '@crewswap/kit';
import { DEFAULT_DUTY_ALLOWANCES, parseFlightTimeLimits, type DutyAllowances } from '@crewswap/proto';

/**
 * The report and release allowances of admin's `flight_time_limits` setting, which every trip's
 * value is derived with. Held here and read again every `refreshMs`, because a trip answer is
 * built synchronously from its row; until the first answer, the defaults.
 */
export function followDutyAllowances(settings: Pick<SettingsClient, 'get'>, refreshMs = 60_000) {
  let current: DutyAllowances = DEFAULT_DUTY_ALLOWANCES;
  const refresh = async () => {
    try {
      current = parseFlightTimeLimits(await settings.get('flight_time_limits'));
    } catch {
      // The settings client answers the last known value or the default itself; keep what we had.
    }
  };
  void refresh();
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  return { current: () => current, refresh, stop: () => clearInterval(timer) };
}
