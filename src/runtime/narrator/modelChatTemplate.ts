// The model's chat template in the worker: the wrapper that renders it, and the tokens of a chat and of its fixed part.
import type { ChatWrapper, LlamaModel, Token } from 'node-llama-cpp';
import type * as NodeLlamaCppModule from 'node-llama-cpp';

type NodeLlamaCpp = typeof NodeLlamaCppModule;

/**
 * The model's own Jinja chat template when it has one, else the wrapper node-llama-cpp resolves. Resolving first
 * compares the template with every specialized wrapper (the same one for Phi-3.5), which took ~1.8 s per load here.
 */
export function chatWrapperFor(nodeLlamaCpp: NodeLlamaCpp, model: LlamaModel, warn: (message: string) => void): ChatWrapper {
  const template = model.fileInfo.metadata.tokenizer?.chat_template;
  if (typeof template !== 'string' || template === '') return nodeLlamaCpp.resolveChatWrapper(model);
  try {
    return new nodeLlamaCpp.JinjaTemplateChatWrapper({ template, tokenizer: model.tokenizer });
  } catch (error) {
    warn(`chat template not usable, resolving a chat wrapper: ${error instanceof Error ? error.message : String(error)}`);
    return nodeLlamaCpp.resolveChatWrapper(model);
  }
}

/** The tokens of a chat (system prompt, user text, the model's turn begun) as the template renders it. */
export function chatTokens(chatWrapper: ChatWrapper, model: LlamaModel, systemPrompt: string, user: string): Token[] {
  return chatWrapper
    .generateContextState({
      chatHistory: [
        { type: 'system', text: systemPrompt },
        { type: 'user', text: user },
        { type: 'model', response: [] },
      ],
    })
    .contextText.tokenize(model.tokenizer);
}

/** The tokens of the fixed part of a chat: what the template renders for the system prompt before any user text. */
export function fixedTokens(chatWrapper: ChatWrapper, model: LlamaModel, systemPrompt: string): Token[] {
  // Two renderings that differ only in the user text share exactly the fixed part.
  const first = chatTokens(chatWrapper, model, systemPrompt, 'a');
  const second = chatTokens(chatWrapper, model, systemPrompt, 'z');
  let length = 0;
  while (length < first.length && length < second.length && first[length] === second[length]) length++;
  return first.slice(0, length);
}
