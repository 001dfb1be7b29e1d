import { Fragment } from 'react';

/**
 * An e-mail address that breaks only at its '@' and its dots, never inside a word: a break
 * opportunity (`<wbr>`) after the '@' and before each '.', in a span that does not break words
 * otherwise (`.email-text`, dataTable.css). The address reads and copies as one.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=\.)|(?<=@)/);
  return (
    <span className="email-text">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
