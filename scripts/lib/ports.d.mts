export function freeTcpPort(): Promise<number>;
export function freeUdpPort(): Promise<number>;
/** An even port p with p..p+3 free and never handed out before (sipp's -mp binds p and p+2). */
export function freeMediaPort(): Promise<number>;
/** `count` consecutive free TCP ports, none handed out before; the first is returned. */
export function freeTcpBlock(count: number): Promise<number>;
