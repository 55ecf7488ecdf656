import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeysFactory } from '../../lib/query-key-factory';
import { sdk } from '../../lib/sdk';
import { useAdminQuery } from './use-admin-query';

export interface AdminFeatures {
  tenant_id: string;
  features: string[];
  sidebar_items: string[];
  status: {
    source: 'api' | 'snapshot' | 'env' | 'all-features';
    all_features_mode: boolean;
    revision: string | null;
    fetched_at: string | null;
    last_error: string | null;
  };
}

export const featuresQueryKeys = queryKeysFactory('features');
const featuresKey = featuresQueryKeys.detail('current');

/**
 * `GET /admin/features`: the licensed features and sidebar items of this tenant. Kept current
 * by `useFeatureEvents` (server-sent events); the slow poll is a backstop for a lost stream.
 */
export const useFeatures = () =>
  useAdminQuery<AdminFeatures>('/admin/features', undefined, {
    queryKey: featuresKey,
    staleTime: Infinity,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const visible = () => document.visibilityState === 'visible';

/** Whether the shell is listening (`data-feature-stream` on the shell, for people and tests). */
export type FeatureStreamState = 'connecting' | 'open' | 'paused';

/**
 * Listens to `GET /admin/features/events` (server-sent events through the SDK's fetchStream)
 * and writes every `features` event into the features query, so the sidebar follows a license
 * toggle without a reload. Reconnects with backoff when the stream drops. A hidden tab lets its
 * stream go and opens a new one when it is shown again (the first event is the current state):
 * browsers allow six connections per host, and every open tab would otherwise hold one.
 */
export function useFeatureEvents(): FeatureStreamState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<FeatureStreamState>('connecting');
  useEffect(() => {
    let stopped = false;
    let abort: (() => void) | null = null;
    let wake: (() => void) | null = null;
    const onVisibility = () => {
      if (visible()) wake?.();
      else abort?.();
    };
    document.addEventListener('visibilitychange', onVisibility);
    void (async () => {
      let delay = 1000;
      while (!stopped) {
        if (!visible()) {
          setState('paused');
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          continue;
        }
        setState('connecting');
        try {
          const stream = await sdk.client.fetchStream('/admin/features/events');
          // Unmounted (or hidden) while the request was being made: let it go at once.
          if (stopped || !visible()) {
            stream.abort();
            continue;
          }
          abort = stream.abort;
          for await (const message of stream.stream) {
            if (stopped) break;
            if (message.event !== 'features' || !message.data) continue;
            queryClient.setQueryData<AdminFeatures>(featuresKey, JSON.parse(message.data) as AdminFeatures);
            setState('open');
            delay = 1000;
          }
        } catch {
          // Dropped, refused or aborted: try again below unless the component is gone.
        }
        abort = null;
        if (stopped) break;
        if (!visible()) continue;
        await sleep(delay);
        delay = Math.min(delay * 2, 30_000);
      }
    })();
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisibility);
      abort?.();
      wake?.();
    };
  }, [queryClient]);
  return state;
}
