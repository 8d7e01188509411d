// A request that got no answer, in a few words: from its code and what it was talking to, so the
// final error, a retry note and a face's own sentence say it the same way.

/** What happened to a request that got no answer, in a few words, from its code: "the connection to the API was dropped". */
export function networkProblem(code: string | undefined, target: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${target}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve the host of ${target}`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `timed out connecting to ${target}`;
    case 'UND_ERR_HEADERS_TIMEOUT':
      return `${target} did not answer in time`;
    case 'UND_ERR_BODY_TIMEOUT':
      return `${target} stopped sending data`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return `the connection to ${target} was dropped`;
    default:
      return `network error talking to ${target}${code ? ` (${code})` : ''}`;
  }
}
