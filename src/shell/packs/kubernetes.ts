/**
 * The Kubernetes pack: `kubectl delete` in any form (a namespace or a
 * whole kind deletes everything in it), node drains, and Helm releases
 * uninstalled.
 *
 * @module
 */

import type { Pack } from "./pack.ts";

/** kubectl options that take a value, before or after the subcommand. */
const KUBECTL_OPTIONS = {
  shortValue: "nlfoc",
  longValue: [
    "namespace",
    "context",
    "cluster",
    "kubeconfig",
    "user",
    "server",
    "selector",
    "filename",
    "output",
    "field-selector",
    "grace-period",
    "timeout",
  ],
};

/** The Kubernetes pack. */
export const KUBERNETES_PACK: Pack = {
  id: "kubernetes",
  summary: "kubectl delete (namespaces, --all, whole kinds), kubectl drain, helm uninstall",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "kubectl-delete",
      commands: ["kubectl", "oc", "k3s", "microk8s.kubectl"],
      path: ["delete"],
      options: KUBECTL_OPTIONS,
      destroys: "deletes cluster resources (a namespace or kind takes everything in it)",
    },
    {
      id: "kubectl-drain",
      commands: ["kubectl", "oc"],
      path: ["drain"],
      options: KUBECTL_OPTIONS,
      destroys: "evicts every pod from a node, deleting their emptyDir data",
    },
    {
      id: "helm-uninstall",
      commands: ["helm"],
      path: [/^(uninstall|delete|del|un)$/],
      options: { shortValue: "n", longValue: ["namespace", "kube-context", "kubeconfig"] },
      destroys: "deletes a release and every resource it created",
    },
  ],
};
