/**
 * Refuses, at validation, an operation whose type the schema does not have
 * (`mutation { ... }` here: the schema has no Mutation type). graphql-js 16
 * validates it and leaves the refusal to its executor; graphql-jit
 * (use-jit.ts) throws instead, and the client got a 500
 * INTERNAL_SERVER_ERROR. Found by the raw-body fuzz test.
 */
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function knownOperationTypeRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const root = context.getSchema().getRootType(operation.operation);
      if (root !== undefined && root !== null) return;
      context.reportError(
        new GraphQLError(`This schema has no ${operation.operation} operations.`, { nodes: [operation] }),
      );
    },
  };
}

export function useKnownOperationTypes(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(knownOperationTypeRule);
    },
  };
}
