import { createLogger, startPeriodic } from '../src';
import { eventually, logLines } from '@crewswap/kit-testing';

describe('periodic work', () => {
  it('a task that throws before it awaits anything (the database away) is logged and run again, never thrown out of the timer', async () => {
    const { output, lines } = logLines<{ msg: string; task?: string }>();
    const log = createLogger('periodic', { LOG_LEVEL: 'warn', LOG_FORMAT: 'json' }, output);
    let runs = 0;
    const periodic = startPeriodic({
      name: 'sweep',
      log,
      intervalMs: 50,
      task: () => {
        runs += 1;
        if (runs === 1) throw Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
        return Promise.resolve();
      },
    });
    try {
      await eventually(() => runs >= 2, 2000);
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'periodic task failed; will retry', task: 'sweep' }));
    } finally {
      await periodic.stop();
    }
  });
});
