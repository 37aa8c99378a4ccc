/** The few icons the first paint needs, inline (no icon font or icon library in the first paint's JS). */
export function UserIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden focusable="false">
      <path
        fill="currentColor"
        d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0 2c-4.4 0-8 2.2-8 5v1a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-1c0-2.8-3.6-5-8-5Z"
      />
    </svg>
  );
}

const paths: Record<'signup' | 'registration' | 'score' | 'photo', string> = {
  signup: 'M4 20h4l10.5-10.5a2.8 2.8 0 0 0-4-4L4 16v4Zm9.5-13.5 4 4M4 20h16',
  registration: 'M9 4h6a1 1 0 0 1 1 1v1H8V5a1 1 0 0 1 1-1Zm-3 2h2m8 0h2v15H6V6h2m1 8 2 2 4-5',
  score: 'M12 21a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm0-8V9m-2-6h4M18.5 5.5l1.5-1.5',
  photo: 'M4 8h3l2-3h6l2 3h3v11H4V8Zm8 9a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z',
};

/** Line icons of the four search modules (sign up, registration, score, photo). */
export function ModuleIcon({ kind }: { kind: keyof typeof paths }) {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden focusable="false">
      <path
        d={paths[kind]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
