import { useEffect, useRef, useState } from 'react';

/**
 * A roster file opened with the app or shared to it (admin spec section 4, "Opened or shared
 * roster files"): held in session storage until the pilot screen takes it into the upload flow,
 * so it survives the login page and a reload in between.
 */
export const PENDING_ROSTER_KEY = 'crewswap-pending-roster-file';
export const ROSTER_FILE_READY = 'roster-file-ready';
/** The pages that show the pilot screen, where a file can be taken at once. */
export const PILOT_SCREEN_PATHS = ['/', '/upload-roster', '/share-roster'];
/** Admin spec section 9: the extensions a file may be opened with. */
export const OPENABLE_EXTENSIONS = ['.ics', '.ics_', '.cal', '.ical', '.ifb', '.icalendar', '.vcs'];
export const PENDING_TRIES = 50;
export const PENDING_RETRY_MS = 100;
/** Where the service worker leaves a file shared to POST /share-roster (it cannot reach session storage). */
export const SHARED_FILE_CACHE = 'crewswap-shared-roster';
export const SHARED_FILE_URL = '/share-roster/pending-file';

interface StoredFile {
  name: string;
  size: number;
  type: string;
  lastModified: number;
  /** base64 */
  bytes: string;
}

// A file too big for session storage's quota still reaches the pilot screen of this page.
let inMemory: File | null = null;

export function isOpenableRosterFile(name: string): boolean {
  const lower = name.toLowerCase();
  return OPENABLE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** FileReader rather than Blob.arrayBuffer(), which older Safari (and jsdom) lack. */
function readBytes(file: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

export async function storePendingRoster(file: File): Promise<void> {
  inMemory = file;
  const stored: StoredFile = {
    name: file.name,
    size: file.size,
    type: file.type,
    lastModified: file.lastModified,
    bytes: toBase64(await readBytes(file)),
  };
  try {
    sessionStorage.setItem(PENDING_ROSTER_KEY, JSON.stringify(stored));
  } catch (error) {
    console.warn('The opened roster file is too big to keep across a reload', error);
  }
}

/** The pending file, once: taking it removes it. */
export function takePendingRoster(): File | null {
  const raw = sessionStorage.getItem(PENDING_ROSTER_KEY);
  sessionStorage.removeItem(PENDING_ROSTER_KEY);
  const memory = inMemory;
  inMemory = null;
  if (raw === null) return memory;
  try {
    const stored = JSON.parse(raw) as StoredFile;
    return new File([fromBase64(stored.bytes)], stored.name, { type: stored.type, lastModified: stored.lastModified });
  } catch (error) {
    console.warn('The pending roster file could not be read', error);
    return memory;
  }
}

/**
 * Holds an opened or shared file for the pilot screen: away from it the app goes to "/", on it the
 * screen is told the file is ready. A file of another kind is only logged (admin spec section 8).
 */
export async function handOffRosterFile(file: File, pathname: string, navigate: (path: string) => void): Promise<void> {
  if (!isOpenableRosterFile(file.name)) {
    console.warn(`Not a roster calendar file, ignored: ${file.name}`);
    return;
  }
  await storePendingRoster(file);
  if (PILOT_SCREEN_PATHS.includes(pathname)) window.dispatchEvent(new Event(ROSTER_FILE_READY));
  else navigate('/');
}

/** The file a share to the app left in the service worker's cache, if any; taking it removes it. */
export async function takeSharedFile(): Promise<File | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(SHARED_FILE_CACHE);
  const response = await cache.match(SHARED_FILE_URL);
  if (!response) return null;
  await cache.delete(SHARED_FILE_URL);
  const name = decodeURIComponent(response.headers.get('x-file-name') ?? 'roster.ics');
  const lastModified = Number(response.headers.get('x-last-modified')) || Date.now();
  const blob = await response.blob();
  return new File([blob], name, { type: blob.type, lastModified });
}

/**
 * The pilot screen's side: looks for a pending file when it mounts and whenever one is announced,
 * up to 50 times every 100 ms (the file may still be on its way from the launch queue or the
 * service worker), and hands each one found to `onFile`.
 */
export function usePendingRosterFile(onFile: (file: File) => void): void {
  const latest = useRef(onFile);
  latest.current = onFile;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = (triesLeft: number) => {
      clearTimeout(timer);
      const file = takePendingRoster();
      if (file) return latest.current(file);
      if (triesLeft > 1) timer = setTimeout(() => look(triesLeft - 1), PENDING_RETRY_MS);
    };
    const onReady = () => look(PENDING_TRIES);
    window.addEventListener(ROSTER_FILE_READY, onReady);
    // A task of its own: a page's first read of sessionStorage is slow, and the screen's first
    // effects (its queries, its event stream) are one long task on a phone already.
    timer = setTimeout(() => look(PENDING_TRIES), 0);
    return () => {
      window.removeEventListener(ROSTER_FILE_READY, onReady);
      clearTimeout(timer);
    };
  }, []);
}

/** The name of the file waiting for the pilot screen, without taking it; null when none waits. */
export function pendingRosterName(): string | null {
  try {
    const raw = sessionStorage.getItem(PENDING_ROSTER_KEY);
    return inMemory?.name ?? (raw ? (JSON.parse(raw) as StoredFile).name : null);
  } catch {
    return null;
  }
}

/** The waiting file's name, kept current as files arrive (the login page says what happens to it). */
export function usePendingRosterName(): string | null {
  const [name, setName] = useState(pendingRosterName);
  useEffect(() => {
    const update = () => setName(pendingRosterName());
    window.addEventListener(ROSTER_FILE_READY, update);
    return () => window.removeEventListener(ROSTER_FILE_READY, update);
  }, []);
  return name;
}

/** The launch queue's files (file handling), in browsers that have it. */
interface LaunchParams {
  files: ReadonlyArray<{ kind: string; getFile(): Promise<File> }>;
}
interface LaunchQueue {
  setConsumer(consumer: (params: LaunchParams) => void): void;
}

/** App-wide: files opened with the installed app, and files shared to it, become the pending file. */
export function useOpenedRosterFiles(pathname: () => string, navigate: (path: string) => void): void {
  const latest = useRef({ pathname, navigate });
  latest.current = { pathname, navigate };
  useEffect(() => {
    const hand = (file: File) => handOffRosterFile(file, latest.current.pathname(), latest.current.navigate);
    const launchQueue = (window as Window & { launchQueue?: LaunchQueue }).launchQueue;
    launchQueue?.setConsumer((params) => {
      const handle = params.files.find((entry) => entry.kind === 'file');
      if (handle) void handle.getFile().then(hand, (error: unknown) => console.warn('The opened file could not be read', error));
    });
    void takeSharedFile().then(
      (file) => file && hand(file),
      (error: unknown) => console.warn('The shared file could not be read', error),
    );
  }, []);
}
