// Documented enums that commands also need as flag choices. Kept apart from schemas.ts so that
// registering a command (which --help does) does not load valibot.
export const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
