import { useState } from 'react';
import { emptyIdentity, validateIdentity, type IdentityErrors } from '../components/identity-fields';

/**
 * The name + certificate part of a search form: its value, its messages, and `check()` for submit (shows
 * every field's message; true when the identity can be searched). `fields` goes to <IdentityFields>.
 */
export function useIdentityForm() {
  const [identity, setIdentity] = useState(emptyIdentity);
  const [errors, setErrors] = useState<IdentityErrors>({ name: null, certificateNumber: null });
  const check = () => {
    const errs = validateIdentity(identity);
    setErrors(errs);
    return !errs.name && !errs.certificateNumber;
  };
  return { identity, check, fields: { value: identity, onChange: setIdentity, errors, onErrors: setErrors } };
}
