import { clx, Input, Text } from '@medusajs/ui';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A search box with a list of matches under it (WAI-ARIA combobox): type to search, ArrowDown /
 * ArrowUp to move through the matches, Enter to take one, Escape to close. The caller searches
 * (debounced, on the server) with the text it gets from `onSearch` and passes the matches.
 */
export function Combobox<T>({
  id,
  label,
  selectedLabel,
  placeholder,
  items,
  isLoading,
  error,
  itemKey,
  renderItem,
  onSearch,
  onSelect,
  invalid,
  describedBy,
  testId,
  autoFocus,
}: {
  id?: string;
  label: string;
  /** What the box shows while the person is not typing (the chosen item). */
  selectedLabel: string;
  placeholder?: string;
  items: T[];
  isLoading?: boolean;
  error?: ReactNode;
  itemKey: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  onSearch: (text: string) => void;
  onSelect: (item: T) => void;
  invalid?: boolean;
  describedBy?: string;
  testId?: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const listId = `${inputId}-list`;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const blurTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => setActive(0), [items]);
  useEffect(() => () => clearTimeout(blurTimer.current), []);

  const choose = (item: T) => {
    onSelect(item);
    setText(null);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(items.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter') {
      if (open && items[active]) {
        e.preventDefault();
        choose(items[active]);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        setOpen(false);
        setText(null);
      }
    }
  };
  const optionId = (i: number) => `${inputId}-option-${i}`;
  return (
    <div className="relative" data-testid={testId}>
      <Input
        id={inputId}
        size="small"
        type="search"
        role="combobox"
        autoComplete="off"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && items[active] ? optionId(active) : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        autoFocus={autoFocus}
        placeholder={placeholder}
        value={text ?? selectedLabel}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          onSearch(e.target.value);
        }}
        onFocus={(e) => {
          e.target.select();
          if (text === null) onSearch('');
          setOpen(true);
        }}
        onBlur={() => {
          // A click on an option lands after the blur: close a moment later.
          blurTimer.current = setTimeout(() => {
            setOpen(false);
            setText(null);
          }, 150);
        }}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          className="bg-ui-bg-base shadow-elevation-flyout absolute z-50 mt-1 max-h-72 w-full min-w-[280px] overflow-y-auto rounded-lg p-1"
        >
          {error ? (
            <li className="px-2 py-1.5">
              <Text size="small" className="text-ui-fg-error">
                {error}
              </Text>
            </li>
          ) : items.length === 0 ? (
            <li className="px-2 py-1.5">
              <Text size="small" className="text-ui-fg-muted">
                {isLoading ? t('general.loading') : t('table.empty')}
              </Text>
            </li>
          ) : (
            items.map((item, i) => (
              <li
                key={itemKey(item)}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={clx(
                  'cursor-pointer rounded-md px-2 py-1.5',
                  i === active ? 'bg-ui-bg-base-hover' : 'hover:bg-ui-bg-base-hover',
                )}
                onMouseEnter={() => setActive(i)}
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(item);
                }}
              >
                {renderItem(item)}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
