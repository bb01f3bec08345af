import { MutationCache, onlineManager } from '@tanstack/react-query';
import { toast } from '../shared/toast';
import { errorMessage } from './client';
import { NEEDS_CONNECTION } from './online';

/** A failed call as the pilot sees it: one toast, worded as the spec's error catalogue words it. */
export interface FailureToast {
  title: string;
  description?: string;
  kind?: 'error' | 'warning';
  /** Stays until closed (the catalogue's sticky 'Password Reset'). */
  sticky?: boolean;
}

type Describe<TVariables> = (error: unknown, variables: TVariables) => FailureToast;

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** How this mutation's failure is told; without it a failure shows no toast. */
      failure?: Describe<unknown>;
    };
  }
}

/** Any failure toast, worked out from the error and the call's variables. */
export function onFailure<TVariables = unknown>(describe: Describe<TVariables>) {
  return { failure: describe as Describe<unknown> };
}

/** 'Error' with '{what}: {server message}', e.g. failedTo('Failed to add trip'). */
export function failedTo(what: string) {
  return onFailure((error) => ({ title: 'Error', description: `${what}: ${errorMessage(error)}` }));
}

/** `title` with the server's message (or `fallback` when it has none). */
export function titled(title: string, fallback?: string) {
  return onFailure((error) => ({ title, description: errorMessage(error) || fallback }));
}

/** `title` with a fixed text, whatever the server said. */
export function fixed(title: string, description: string) {
  return onFailure(() => ({ title, description }));
}

/** The one place a failed mutation becomes a toast: every mutation names its words in `meta.failure`. */
export function createMutationCache(): MutationCache {
  return new MutationCache({
    onError: (error, variables, _result, mutation) => {
      if (!onlineManager.isOnline()) {
        toast.error('Offline', `${NEEDS_CONNECTION} Nothing was sent.`);
        return;
      }
      const describe = mutation.meta?.failure;
      if (!describe) return;
      const { title, description, kind = 'error', sticky } = describe(error, variables);
      toast[kind](title, description, { sticky });
    },
  });
}
