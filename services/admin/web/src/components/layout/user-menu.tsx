import { ArrowRightOnRectangle, EllipsisHorizontal, Language } from '@medusajs/icons';
import { Avatar, DropdownMenu, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout, useMe } from '../../hooks/api/auth';
import { changeLanguage, languages } from '../../i18n';
import { isLanguage } from '../../i18n/types';

/** The signed-in user at the foot of the sidebar: language and sign out. */
export function UserMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const me = useMe();
  const logout = useLogout();
  const user = me.data?.user;
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ') || user?.email || '…';
  // Leave the shell first, then drop the token: a page still mounted without a token would get
  // a 401 and turn the sign-out into a "session expired".
  const signOut = () =>
    void Promise.resolve(navigate('/login', { replace: true })).then(() => logout.mutate());

  return (
    <DropdownMenu>
      <DropdownMenu.Trigger
        className="hover:bg-ui-bg-subtle-hover focus-visible:shadow-borders-focus flex w-full items-center gap-x-3 rounded-md p-1 text-left outline-none"
        data-testid="user-menu"
      >
        <Avatar size="small" fallback={name.charAt(0).toUpperCase()} />
        <div className="flex min-w-0 flex-1 flex-col">
          <Text size="xsmall" weight="plus" leading="compact" className="truncate">
            {name}
          </Text>
          {user?.email && name !== user.email && (
            <Text size="xsmall" leading="compact" className="text-ui-fg-subtle truncate">
              {user.email}
            </Text>
          )}
        </div>
        <EllipsisHorizontal className="text-ui-fg-muted shrink-0" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content align="start" className="min-w-[220px]">
        {user?.email && (
          <DropdownMenu.Label>{t('auth.signedInAs', { email: user.email })}</DropdownMenu.Label>
        )}
        <DropdownMenu.Separator />
        <DropdownMenu.Label className="flex items-center gap-x-2">
          <Language className="text-ui-fg-subtle" />
          {t('general.language')}
        </DropdownMenu.Label>
        <DropdownMenu.RadioGroup
          value={i18n.language}
          onValueChange={(v) => {
            if (isLanguage(v)) void changeLanguage(v);
          }}
        >
          {languages.map((l) => (
            <DropdownMenu.RadioItem key={l} value={l} data-testid={`language-${l}`}>
              {t(`languages.${l}`)}
            </DropdownMenu.RadioItem>
          ))}
        </DropdownMenu.RadioGroup>
        <DropdownMenu.Separator />
        <DropdownMenu.Item onClick={signOut} className="gap-x-2" data-testid="sign-out">
          <ArrowRightOnRectangle className="text-ui-fg-subtle" />
          {t('auth.logout')}
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu>
  );
}
