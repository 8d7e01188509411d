// The planted gaps of the sandbox's analytics. Background data is noise: feedback mostly positive,
// a small share of questions unanswered and scattered over many (category, page) groups, so no
// background group or page stands out. On top of it, `analytics gaps` over the whole window must find,
// in this order:
//   1. search    "rotate api key without downtime": the 2nd most searched term, never clicked
//                (planted in search-data.ts, PLANTED_SEARCH_GAPS);
//   2. question  category "authentication" on /api-reference/authentication: PLANTED_QUESTIONS
//                unanswered questions on one of the most viewed pages;
//   3. search    "webhook signature verification": the 5th most searched term, never clicked;
//   4. page      /guides/deploy: PLANTED_THUMBS_DOWN thumbs-down votes and PLANTED_CODE_REPORTS
//                code-snippet reports, on a page with high traffic.
// Smaller sites (fewer pages than the planted ones need) get no planted page or question gaps.

export const PLANTED_QUESTION_PAGE = '/api-reference/authentication';
export const PLANTED_QUESTION_CATEGORY = 'authentication';
export const PLANTED_QUESTIONS = 60;
export const PLANTED_FEEDBACK_PAGE = '/guides/deploy';
export const PLANTED_THUMBS_DOWN = 45;
export const PLANTED_CODE_REPORTS = 12;
