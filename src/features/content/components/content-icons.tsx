/** Line icons of the content pages (inline SVG, decorative: the text next to them carries the meaning). */
const paths = {
  calendar: 'M7 3v3m10-3v3M4 8h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Z',
  arrowLeft: 'M19 12H5m6-6-6 6 6 6',
  arrowRight: 'M5 12h14m-6-6 6 6-6 6',
  chevronLeft: 'm15 5-7 7 7 7',
  chevronRight: 'm9 5 7 7-7 7',
  external: 'M14 4h6v6m0-6-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5',
  close: 'M6 6l12 12M18 6 6 18',
  document: 'M7 3h7l5 5v12a1 1 0 0 1-1 1H7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Zm7 0v5h5M9 13h6m-6 4h6',
  image: 'M4 5h16v14H4V5Zm0 11 5-5 4 4 3-3 4 4M15.5 9.5a1.5 1.5 0 1 0 0-.01',
  video: 'M4 6h11a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1Zm12 4 5-3v10l-5-3',
  zoom: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Zm9 2-4-4m-5-8v6m-3-3h6',
  alert: 'M12 4 2.5 20h19L12 4Zm0 6v4m0 3v.01',
  play: 'M8 5v14l11-7L8 5Z',
} as const;

export type ContentIconName = keyof typeof paths;

export function ContentIcon({
  name,
  size = 18,
  className,
}: {
  name: ContentIconName;
  size?: number;
  className?: string;
}) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden focusable="false">
      <path
        d={paths[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The round play mark on video posters. */
export function PlayMark({ size = 64 }: { size?: number }) {
  return (
    <svg className="play-mark" viewBox="0 0 64 64" width={size} height={size} aria-hidden focusable="false">
      <circle cx="32" cy="32" r="31" fill="rgba(8, 36, 63, 0.55)" stroke="#fff" strokeWidth="2" />
      <path d="M26 20v24l19-12-19-12Z" fill="#fff" />
    </svg>
  );
}
