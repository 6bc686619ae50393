// How the docs tests read Markdown: headings' anchors as GitHub makes them.

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of every heading of a page's text. */
export const anchorsOf = (markdown: string): string[] => [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!));
