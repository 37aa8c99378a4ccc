/** The heading of a home section: a small eyebrow line, the title and an optional "more" link. */
export function SectionHead({
  id,
  eyebrow,
  title,
  children,
}: {
  id: string;
  eyebrow?: string;
  title: string;
  children?: React.ReactNode;
}) {
  return (
    <header className="section-head">
      <div>
        {eyebrow ? <p className="section-head__eyebrow">{eyebrow}</p> : null}
        <h2 className="section-head__title" id={id}>
          {title}
        </h2>
      </div>
      {children}
    </header>
  );
}
