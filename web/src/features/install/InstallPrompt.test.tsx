import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../../test/render';
import { InstallPrompt } from './InstallPrompt';
import { dismissalExpired, DISMISSED_KEY, IOS_AUTO_SHOW_MS, isIos, RESHOW_AFTER_MS } from './installRules';

const DAY = 24 * 60 * 60 * 1000;

/** The browser's 'this app can be installed' signal, with the pilot's answer to its native prompt. */
function offerInstall(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
    prompt: ReturnType<typeof vi.fn>;
    userChoice: Promise<{ outcome: string }>;
  };
  event.prompt = vi.fn(async () => undefined);
  event.userChoice = Promise.resolve({ outcome });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
}

function standalone(matches: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: matches && query.includes('standalone'), media: query, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }) as unknown as MediaQueryList,
  );
}

const dialog = () => screen.queryByRole('dialog', { name: 'Install CrewSwap' });

beforeEach(() => {
  stubFetch(() => undefined);
  localStorage.clear();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('install prompt dismissal', () => {
  it('re-shows only when never dismissed or the last dismissal was more than 7 days ago', () => {
    const now = Date.now();
    expect(dismissalExpired(null, now)).toBe(true);
    expect(dismissalExpired(String(now - 6 * DAY), now)).toBe(false);
    expect(dismissalExpired(String(now - RESHOW_AFTER_MS), now)).toBe(false);
    expect(dismissalExpired(String(now - RESHOW_AFTER_MS - 1), now)).toBe(true);
    expect(dismissalExpired('not a time', now)).toBe(true);
  });

  it("Maybe Later stores the time in 'pwa-install-dismissed' and the prompt stays away for 7 days", async () => {
    renderWithApp(<InstallPrompt />);
    offerInstall();
    expect(await screen.findByText('Install CrewSwap for faster access, offline support, and push notifications.')).toBeInTheDocument();
    const before = Date.now();
    fireEvent.click(screen.getByRole('button', { name: 'Maybe Later' }));
    const stored = Number(localStorage.getItem(DISMISSED_KEY));
    expect(stored).toBeGreaterThanOrEqual(before);
    expect(dialog()).toBeNull();

    offerInstall();
    expect(dialog()).toBeNull();

    localStorage.setItem(DISMISSED_KEY, String(Date.now() - RESHOW_AFTER_MS - 1000));
    offerInstall();
    expect(await screen.findByRole('dialog', { name: 'Install CrewSwap' })).toBeInTheDocument();
  });

  it('Cancel closes without storing anything, so the next signal shows it again', async () => {
    renderWithApp(<InstallPrompt />);
    offerInstall();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(localStorage.getItem(DISMISSED_KEY)).toBeNull();
    offerInstall();
    expect(await screen.findByRole('dialog', { name: 'Install CrewSwap' })).toBeInTheDocument();
  });

  it("Install App runs the browser's prompt; accepted, it says 'App Installed'", async () => {
    renderWithApp(<InstallPrompt />);
    const event = offerInstall('accepted');
    expect(event.defaultPrevented).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: /Install App/ }));
    expect(await screen.findByText('App Installed')).toBeInTheDocument();
    expect(screen.getByText('CrewSwap has been added to your home screen')).toBeInTheDocument();
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(dialog()).toBeNull();
  });

  it('never shows inside the installed app', () => {
    standalone(true);
    renderWithApp(<InstallPrompt />);
    offerInstall();
    expect(dialog()).toBeNull();
  });
});

describe('install prompt on iOS', () => {
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

  it('knows iPhones, and iPads that say they are Macs', () => {
    expect(isIos({ userAgent: IPHONE, maxTouchPoints: 5 })).toBe(true);
    expect(isIos({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', maxTouchPoints: 5, platform: 'MacIntel' })).toBe(true);
    expect(isIos({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', maxTouchPoints: 0, platform: 'MacIntel' })).toBe(false);
  });

  it("shows the three Safari steps 5 seconds after load, with Maybe Later and no Cancel; within 7 days of 'Maybe Later' it does not", () => {
    vi.useFakeTimers();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    const first = renderWithApp(<InstallPrompt />);
    act(() => vi.advanceTimersByTime(IOS_AUTO_SHOW_MS - 1));
    expect(dialog()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(dialog()).not.toBeNull();
    expect(screen.getByText(/Tap the Share button/)).toHaveTextContent('at the bottom of Safari');
    expect(screen.getByText(/Scroll down and tap/)).toHaveTextContent('Add to Home Screen');
    expect(screen.getByText(/to confirm/)).toHaveTextContent("Tap Add to confirm.");
    expect(screen.getByText(/Push notifications work best when CrewSwap is installed on your home screen/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Install App/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Maybe Later' }));
    expect(localStorage.getItem(DISMISSED_KEY)).not.toBeNull();
    first.unmount();

    renderWithApp(<InstallPrompt />);
    act(() => vi.advanceTimersByTime(IOS_AUTO_SHOW_MS * 2));
    expect(dialog()).toBeNull();
  });
});
