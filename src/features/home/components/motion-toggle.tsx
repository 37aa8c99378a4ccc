/**
 * The pause / play button of a moving part of the page (the carousel, the news ticker): WCAG 2.2.2 asks that
 * anything that moves by itself for more than five seconds can be paused. Its label names what pressing it
 * does ("pause the slideshow" / "play the slideshow").
 */
export function MotionToggle({
  running,
  onToggle,
  label,
  className,
  testId,
}: {
  running: boolean;
  onToggle: () => void;
  label: string;
  className: string;
  testId: string;
}) {
  return (
    <button type="button" className={className} onClick={onToggle} aria-label={label} data-testid={testId}>
      <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden focusable="false">
        {running ? (
          <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor" />
        ) : (
          <path d="M8 5v14l11-7z" fill="currentColor" />
        )}
      </svg>
    </button>
  );
}
