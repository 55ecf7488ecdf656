import { Outlet } from 'react-router';
import { LanguageSwitcher } from '../common/language-switcher';

/** Sign-in, forgot and reset password: one card in the middle of the page. */
export function PublicLayout() {
  return (
    <div className="bg-ui-bg-subtle relative flex min-h-screen items-center justify-center px-4 py-6">
      <LanguageSwitcher className="absolute right-4 top-4 w-36" />
      <div className="bg-ui-bg-base shadow-elevation-card-rest flex w-full max-w-[400px] flex-col items-center gap-y-8 rounded-2xl px-8 py-10">
        <div className="bg-ui-bg-component shadow-elevation-card-rest flex size-14 items-center justify-center rounded-xl">
          <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
            <rect width="32" height="32" rx="8" fill="currentColor" className="text-ui-fg-base" />
            <path
              d="M9 23l7-14 7 14M12 18h8"
              stroke="white"
              strokeWidth="2.5"
              fill="none"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </div>
        <div className="w-full">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
