/** A chat turn's "Name: " prefix (as `addConversation` writes it); the speaker preference reads the same. */
export const SPEAKER_PREFIX = /^([A-Z][\w .'-]{0,40}):\s/;
