import { zodResolver } from '@hookform/resolvers/zod';
import { Hint, Input, Label } from '@medusajs/ui';
import { type ComponentProps, type ReactNode, useId } from 'react';
import {
  Controller,
  type ControllerRenderProps,
  type DefaultValues,
  type FieldValues,
  FormProvider,
  get,
  type Path,
  useForm,
  useFormContext,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

/**
 * A react-hook-form form validated by a zod schema before anything is sent: submit runs only
 * with values the schema accepts (and has transformed). Use the API's own schema where it can
 * be shared; messages may be translation keys (`validation.required`) or plain text.
 */
export function useZodForm<TIn extends FieldValues, TOut extends FieldValues>(
  schema: z.ZodType<TOut, TIn>,
  defaultValues?: DefaultValues<TIn>,
) {
  return useForm<TIn, unknown, TOut>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    ...(defaultValues ? { defaultValues } : {}),
  });
}

/** The <form>: no browser validation bubbles (the schema decides), submit through the schema. */
export function Form<TIn extends FieldValues, TOut extends FieldValues>({
  form,
  onSubmit,
  children,
  className,
  testId,
}: {
  form: UseFormReturn<TIn, unknown, TOut>;
  onSubmit: (values: TOut) => unknown;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <FormProvider {...form}>
      <form
        noValidate
        className={className ?? 'flex flex-col gap-y-4'}
        data-testid={testId}
        onSubmit={(e) => void form.handleSubmit(onSubmit)(e)}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** A validation message: a translation key when it is one, else the text as it came. */
function useFieldError(name: string): string | undefined {
  const { t, i18n } = useTranslation();
  const { formState } = useFormContext();
  const message = (get(formState.errors, name) as { message?: string } | undefined)?.message;
  if (!message) return undefined;
  return i18n.exists(message) ? (t as (k: string) => string)(message) : message;
}

/** Label, control, and the field's hint or error under it; the control gets id and aria wiring. */
export function FormField<T extends FieldValues>({
  name,
  label,
  hint,
  render,
}: {
  name: Path<T>;
  label: ReactNode;
  hint?: ReactNode;
  render: (props: {
    field: ControllerRenderProps<T, Path<T>>;
    id: string;
    invalid: boolean;
    describedBy: string | undefined;
  }) => ReactNode;
}) {
  const id = useId();
  const { control } = useFormContext<T>();
  const error = useFieldError(name);
  const describedBy = error || hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-y-2">
      <Label htmlFor={id} size="small" weight="plus">
        {label}
      </Label>
      <Controller
        control={control}
        name={name}
        render={({ field }) => <>{render({ field, id, invalid: Boolean(error), describedBy })}</>}
      />
      {error ? (
        <Hint id={`${id}-hint`} variant="error" data-testid={`error-${name}`}>
          {error}
        </Hint>
      ) : hint ? (
        <Hint id={`${id}-hint`}>{hint}</Hint>
      ) : null}
    </div>
  );
}

/** The common case: a text input bound to the field. */
export function TextField<T extends FieldValues>({
  name,
  label,
  hint,
  ...input
}: { name: Path<T>; label: ReactNode; hint?: ReactNode } & Omit<
  ComponentProps<typeof Input>,
  'name' | 'value' | 'onChange' | 'onBlur' | 'id'
>) {
  return (
    <FormField<T>
      name={name}
      label={label}
      hint={hint}
      render={({ field, id, invalid, describedBy }) => (
        <Input
          {...input}
          id={id}
          name={field.name}
          ref={field.ref}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
      )}
    />
  );
}
